/** Longest line kept whole; longer runs without a newline are cut into pieces of this size. */
const MAX_LINE_CHARS = 1024 * 1024;

/**
 * Turns chunks of text into complete lines (without `\n` or a trailing `\r`), keeping the
 * unfinished tail for the next chunk.
 * @example const split = new LineSplitter(); split.push('a\nb'); // ['a']; split.end(); // ['b']
 */
export class LineSplitter {
  #tail = '';

  push(chunk: string): string[] {
    const text = this.#tail + chunk;
    const parts = text.split('\n');
    this.#tail = parts.pop()!;
    if (this.#tail.length > MAX_LINE_CHARS) {
      parts.push(this.#tail);
      this.#tail = '';
    }
    for (let i = 0; i < parts.length; i++) {
      const line = parts[i]!;
      if (line.endsWith('\r')) parts[i] = line.slice(0, -1);
    }
    return parts;
  }

  end(): string[] {
    const rest = this.#tail;
    this.#tail = '';
    return rest ? [rest.endsWith('\r') ? rest.slice(0, -1) : rest] : [];
  }
}
