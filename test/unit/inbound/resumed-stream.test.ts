// ResumedStream: what the store replayed is written once even when its live copy arrives after the
// read (Redis pub/sub lags the stream the event was appended to: seen as progress 4 written twice).
import { describe, expect, it } from 'vitest';
import { ResumedStream } from '../../../src/inbound/http-stored-stream.js';
import type { SseStream } from '../../../src/inbound/http-sse.js';

function sink() {
  const written: string[] = [];
  let open = true;
  const sse = {
    get isOpen() {
      return open;
    },
    sendEvent: (id: string) => (written.push(id), true),
    end: () => {
      open = false;
    },
  } as unknown as SseStream;
  return { sse, written };
}

const ev = (id: string) => ({ id, stream: 's1', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: Number(id) } }) });

describe('ResumedStream', () => {
  it('writes a replayed event once when its live copy comes during the read or after it', () => {
    const { sse, written } = sink();
    const stream = new ResumedStream('s1', sse, true);
    stream.live(ev('2')); // heard while the store was read
    stream.replay([ev('1'), ev('2'), ev('3')]);
    stream.live(ev('3')); // the pub/sub copy, late
    stream.live(ev('4'));
    expect(written).toEqual(['1', '2', '3', '4']);
  });
});
