/**
 * A pure function of a string, remembered for the arguments it saw last: a suite's properties ask the same
 * questions again (the file of their call site, the hash of a shape their strategies share, the seed of a key
 * seen before), and each answer costs a hash or a URL parse. At most `limit` answers are kept; past that the
 * memory starts over, so a process making many distinct keys holds no more than that.
 */
export function remembered<T>(f: (text: string) => T, limit = 1024): (text: string) => T {
  let answers = new Map<string, T>();
  return (text) => {
    const known = answers.get(text);
    if (known !== undefined || answers.has(text)) return known as T;
    const answer = f(text);
    if (answers.size >= limit) answers = new Map();
    answers.set(text, answer);
    return answer;
  };
}
