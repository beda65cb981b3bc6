export * from './negotiation';
export * from './xml-mapping';
export * from './xml-serializer';
export * from './xml-reader';
export * from './xml-negotiation';
