export function search(query: string, maxResults: number): Promise<string[]> {
  return Promise.resolve([]);
}
