/** Longest line kept whole; longer runs without a newline are cut into pieces of this size. */
const MAX_LINE_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Turns chunks of bytes into complete UTF-8 lines (without `\n` or a trailing `\r`), keeping
 * the unfinished tail for the next chunk. Works on Buffers so each line becomes its own small
 * string: splitting a decoded chunk would give slices that keep the whole chunk alive, which
 * shows up as memory growth on tasks printing millions of lines.
 * @example const split = new LineSplitter(); split.push(Buffer.from('a\nb')); // ['a']; split.end(); // ['b']
 */
export class LineSplitter {
  #tail: Buffer | null = null;

  push(chunk: Buffer): string[] {
    const data = this.#tail ? Buffer.concat([this.#tail, chunk]) : chunk;
    const lines: string[] = [];
    let start = 0;
    for (let nl = data.indexOf(NEWLINE, start); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
      lines.push(decodeLine(data, start, nl));
      start = nl + 1;
    }
    if (data.length - start > MAX_LINE_BYTES) {
      lines.push(decodeLine(data, start, data.length));
      start = data.length;
    }
    // Copy the tail: a view would keep the whole chunk alive until the next newline.
    this.#tail = start < data.length ? Buffer.from(data.subarray(start)) : null;
    return lines;
  }

  end(): string[] {
    const rest = this.#tail;
    this.#tail = null;
    return rest && rest.length ? [decodeLine(rest, 0, rest.length)] : [];
  }
}

function decodeLine(data: Buffer, start: number, end: number): string {
  return data.toString('utf8', start, end > start && data[end - 1] === CR ? end - 1 : end);
}
