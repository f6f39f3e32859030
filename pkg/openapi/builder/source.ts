// The seam between the documents and where their definitions come from (the generated
// built-in schema, the custom resources served at the time): definitions.ts renders
// through it, definition-source.ts implements it.
import type { JSONObject } from '../types.js';

export interface DefinitionSource {
  /** The definition name of a kind this source documents, e.g. `com.example.v1.Gadget`. */
  nameForGVK(group: string, version: string, kind: string): string | undefined;
  has(name: string): boolean;
  /** The definition as a document publishes it: Swagger 2.0 (v2) or OpenAPI 3.0 (v3). */
  render(name: string, v3: boolean): JSONObject | undefined;
  /** The definition names its v2 or v3 rendering refers to through `$ref`. */
  refs(name: string, v3: boolean): string[];
}
