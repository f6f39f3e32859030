// Line splitting for streamed responses (watches), shared by the benchmarks' watch clients.
/** Calls `onLine` with each complete line of a streamed response (a watch) and the time its chunk arrived. */
export function onLines(res: NodeJS.ReadableStream & { setEncoding(e: string): unknown }, clock: () => number, onLine: (line: string, at: number) => void): void {
  let buf = '';
  res.setEncoding('utf8');
  res.on('data', (c: string) => {
    const at = clock();
    buf += c;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      onLine(line, at);
    }
  });
}
