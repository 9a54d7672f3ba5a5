import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../../../src/server/engine/process/line-splitter.ts';

describe('line splitter', () => {
  it('joins lines across chunks and drops the newline and a trailing carriage return', () => {
    const split = new LineSplitter();
    expect(split.push(Buffer.from('one\r\ntw'))).toEqual(['one']);
    expect(split.push(Buffer.from('o\nthree'))).toEqual(['two']);
    expect(split.end()).toEqual(['three']);
    expect(split.end()).toEqual([]);
  });

  it('keeps a multi-byte character split between chunks intact', () => {
    const bytes = Buffer.from('héllo wörld\n');
    const split = new LineSplitter();
    expect(split.push(bytes.subarray(0, 2))).toEqual([]);
    expect(split.push(bytes.subarray(2))).toEqual(['héllo wörld']);
  });

  it('keeps empty lines', () => {
    expect(new LineSplitter().push(Buffer.from('a\n\nb\n'))).toEqual(['a', '', 'b']);
  });
});
