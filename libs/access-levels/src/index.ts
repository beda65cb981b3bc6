export * from './access-levels.module';
export * from './access-levels.service';
export * from './access-level.mapper';
export * from './entities/access-level.entity';
