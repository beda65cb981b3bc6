export * from './lightboxes.module';
export { LIGHTBOX_ITEM_XML, LIGHTBOX_XML } from './lightbox.mapper';
export * from './events/lightbox-events';
export * from './lightbox-assets';
