/** Named parameters unique within one query (`s0`, `s1`, ...), so fragments compose. */
export class SqlParams {
  readonly values: Record<string, unknown> = {};
  private next = 0;

  add(value: unknown): string {
    const name = `s${this.next++}`;
    this.values[name] = value;
    return Array.isArray(value) ? `(:...${name})` : `:${name}`;
  }
}
