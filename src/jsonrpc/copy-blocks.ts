// A few long-lived blocks of native memory that bytes waiting in a backed-up stream's queue are
// copied into, so the read buffers they came from can die young (wire-bytes.ts says why that
// matters). Invariant: a block is written into again only after every write holding a view of it
// has called back; a block whose writes never call back (a stream torn down oddly) is simply never
// reused, and is collected with the views that hold it.

/** Size of one block: four 64 KiB reads. */
export const BLOCK_BYTES = 256 * 1024;
/** Free blocks kept for reuse; more are allocated under a burst and left to the GC after it. */
const MAX_FREE_BLOCKS = 16;

class Block {
  readonly bytes = Buffer.allocUnsafeSlow(BLOCK_BYTES);
  used = 0;
  /** Writes handed a view of this block that have not called back yet. */
  refs = 0;
  /** No longer the block copies go into: reusable once refs is 0. */
  retired = false;

  constructor(private readonly pool: CopyBlocks) {}

  /** The write callback of every view of this block (one function per block, not per write). */
  readonly written = (): void => {
    if (--this.refs === 0 && this.retired) this.pool.release(this);
  };
}

export class CopyBlocks {
  private readonly free: Block[] = [];
  private current: Block | undefined;

  /**
   * A copy of `bytes` (at most BLOCK_BYTES) in a block, and the callback to pass with its write:
   * the block's room is reused only after it has been called.
   */
  copy(bytes: Buffer): { view: Buffer; written: () => void } {
    let block = this.current;
    if (block === undefined || block.used + bytes.length > BLOCK_BYTES) {
      if (block !== undefined) this.retire(block);
      block = this.free.pop() ?? new Block(this);
      block.used = 0;
      block.retired = false;
      this.current = block;
    }
    const start = block.used;
    bytes.copy(block.bytes, start);
    block.used += bytes.length;
    block.refs++;
    return { view: block.bytes.subarray(start, block.used), written: block.written };
  }

  /** Blocks kept for reuse now (for tests and figures). */
  get freeBlocks(): number {
    return this.free.length;
  }

  private retire(block: Block): void {
    block.retired = true;
    if (block.refs === 0) this.release(block);
  }

  /** @internal A retired block whose writes have all called back. */
  release(block: Block): void {
    if (this.free.length < MAX_FREE_BLOCKS) this.free.push(block);
  }
}
