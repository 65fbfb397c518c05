// The blocks bytes are copied into for a backed-up stream (jsonrpc/copy-blocks.ts): reused only
// after every write holding a view of them has called back, so no queued copy is overwritten.

import { describe, expect, it } from 'vitest';
import { BLOCK_BYTES, CopyBlocks } from '../../../src/jsonrpc/copy-blocks.js';

const piece = (size: number, fill: number) => Buffer.alloc(size, fill);

describe('copy blocks', () => {
  it('never hands out room in a block while a write holding a view of it has not called back', () => {
    const blocks = new CopyBlocks();
    const first = [blocks.copy(piece(BLOCK_BYTES / 2, 1)), blocks.copy(piece(BLOCK_BYTES / 2, 2))];
    const firstBlock = first[0]!.view.buffer;
    expect(first[1]!.view.buffer).toBe(firstBlock);
    // The first block is full: the next copy goes to another, and the first is retired.
    const second = blocks.copy(piece(1000, 3));
    expect(second.view.buffer).not.toBe(firstBlock);
    first[0]!.written(); // one of the first block's two writes is still queued
    const third = blocks.copy(piece(BLOCK_BYTES, 4)); // does not fit the second block either
    expect(third.view.buffer).not.toBe(firstBlock);
    expect(first[1]!.view.every((b) => b === 2)).toBe(true);
  });

  it('reuses a retired block once all its writes have called back', () => {
    const blocks = new CopyBlocks();
    const a = blocks.copy(piece(BLOCK_BYTES, 1));
    const b = blocks.copy(piece(BLOCK_BYTES, 2)); // retires a's block
    expect(blocks.freeBlocks).toBe(0);
    a.written();
    expect(blocks.freeBlocks).toBe(1);
    const c = blocks.copy(piece(10, 3)); // retires b's block, takes a's
    expect(c.view.buffer).toBe(a.view.buffer);
    expect(c.view.every((x) => x === 3)).toBe(true);
    expect(b.view.every((x) => x === 2)).toBe(true);
  });
});
