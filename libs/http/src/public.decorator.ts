import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'dam:isPublic';

/** Opts a route out of authentication (the guard denies by default). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
