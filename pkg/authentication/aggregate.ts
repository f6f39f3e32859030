// Upstream reports several authenticators' failures as one aggregate error: a single
// message as is, several (duplicates dropped) as "[a, b]".
export function aggregateMessage(messages: string[]): string | undefined {
  const unique = [...new Set(messages)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}
