export * from './lightboxes.module';
