// How upstream's messages print internal apiextensions values (%#v of Go structs).
// Pointers print as addresses in Go; a fixed placeholder stands in for them.
import { GoLiteral, goQuote, goStringSlice } from '../../runtime/gofmt.js';
import type { CRDColumn, CRDVersion } from './types.js';

const pointer = '0xc000010000';

function ptr(type: string, set: boolean): string {
  return `(*apiextensions.${type})(${set ? pointer : 'nil'})`;
}

function column(c: CRDColumn): string {
  return `apiextensions.CustomResourceColumnDefinition{Name:${goQuote(c.name ?? '')}, Type:${goQuote(c.type ?? '')}, `
    + `Format:${goQuote(c.format ?? '')}, Description:${goQuote(c.description ?? '')}, Priority:${c.priority ?? 0}, JSONPath:${goQuote(c.jsonPath ?? '')}}`;
}

/**
 * spec.versions as the internal type prints it. `hoisted` fields were moved to the
 * top level by the v1 conversion (identical in every version) and print as nil here.
 */
export function goVersions(versions: CRDVersion[] | undefined, hoisted: { schema: boolean; subresources: boolean; columns: boolean }): GoLiteral {
  if (versions === undefined) return new GoLiteral('[]apiextensions.CustomResourceDefinitionVersion(nil)');
  const items = versions.map((v) => {
    const cols = hoisted.columns || !v.additionalPrinterColumns
      ? '[]apiextensions.CustomResourceColumnDefinition(nil)'
      : `[]apiextensions.CustomResourceColumnDefinition{${v.additionalPrinterColumns.map(column).join(', ')}}`;
    return `apiextensions.CustomResourceDefinitionVersion{Name:${goQuote(v.name ?? '')}, Served:${v.served === true}, `
      + `Storage:${v.storage === true}, Deprecated:${v.deprecated === true}, DeprecationWarning:(*string)(${v.deprecationWarning !== undefined ? pointer : 'nil'}), `
      + `Schema:${ptr('CustomResourceValidation', !hoisted.schema && v.schema !== undefined)}, `
      + `Subresources:${ptr('CustomResourceSubresources', !hoisted.subresources && v.subresources !== undefined)}, `
      + `AdditionalPrinterColumns:${cols}}`;
  });
  return new GoLiteral(`[]apiextensions.CustomResourceDefinitionVersion{${items.join(', ')}}`);
}

/** A string list; absent is a nil slice. */
export function goStrings(items: string[] | undefined): GoLiteral {
  return new GoLiteral(goStringSlice(items ?? null));
}
