// cel-go's error text: `ERROR: <input>:<line>:<col>: <message>` followed by the source line
// and a caret under the column, which upstream returns verbatim in API errors and warnings.

export interface SourceError {
  /** Offset of the error in the expression (0-based, in characters). */
  offset: number;
  message: string;
}

export function formatErrors(expression: string, errs: SourceError[]): string {
  return errs.map((e) => formatError(expression, e)).join('\n');
}

function formatError(expression: string, e: SourceError): string {
  const lines = expression.split('\n');
  let offset = Math.max(0, e.offset);
  let line = 0;
  while (line < lines.length - 1 && offset > lines[line]!.length) {
    offset -= lines[line]!.length + 1;
    line++;
  }
  const src = lines[line] ?? '';
  const caret = `${'.'.repeat(offset)}^`;
  return `ERROR: <input>:${line + 1}:${offset + 1}: ${e.message}\n | ${src}\n | ${caret}`;
}
