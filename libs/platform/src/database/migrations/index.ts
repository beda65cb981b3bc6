import { Foundation1732258800000 } from './1732258800000-foundation';

/** Every migration, oldest first. Listed explicitly so ts-jest and the compiled build load the same set. */
export const MIGRATIONS = [Foundation1732258800000];
