/**
 * How large a parsed request body's shape may be. Bytes alone do not bound the work: a 1 MB JSON object
 * of 80,000 keys cost seconds of CPU in the DTO pipes (quadratic in the keys of one object), and 400,000
 * nested arrays overflowed the stack in class-transformer. The body parser measures the shape from the
 * raw text in one pass, before `JSON.parse` or the XML parser runs (body-parser.middleware.ts).
 */
export interface BodyLimits {
  /** Objects and arrays open at once (JSON); XML elements nest one deeper, their leaves being elements. */
  readonly depth: number;
  /** Keys of one JSON object; parameters of a form body. */
  readonly objectKeys: number;
  /** Keys in the whole JSON body; elements in the whole XML body. */
  readonly keys: number;
  /** Items of one JSON array; children of one XML element. */
  readonly arrayItems: number;
}
