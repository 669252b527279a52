/** A JSON object the SDK passes through without naming its fields. */
export interface JsonObject {
  [field: string]: unknown;
}
