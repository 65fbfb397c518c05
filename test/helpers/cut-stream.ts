// A client-side fault for resumption tests: the first POST stream of a tools/call is cut right after
// its priming event, as a connection that breaks mid-call, so the SDK client resumes it with GET +
// Last-Event-ID (wherever `route` sends it).

/**
 * A fetch that cuts the first POST stream of a tools/call right after its priming event (the rest
 * of that response is dropped, its connection closed), and sends POSTs and GETs where `route` says.
 */
export function cutting(route: (method: string) => typeof fetch, beforeResume: () => Promise<void> = async () => {}) {
  const state = { cut: false, primed: '' as string, resumedWith: [] as string[] };
  const fetchFn: typeof fetch = async (input, init) => {
    const method = init?.method ?? 'GET';
    const lastEventId = new Headers(init?.headers).get('last-event-id');
    if (lastEventId !== null) {
      state.resumedWith.push(lastEventId);
      await beforeResume();
    }
    const res = await route(method)(input, init);
    const isCall = method === 'POST' && typeof init?.body === 'string' && init.body.includes('"tools/call"');
    if (!isCall || state.cut || !res.headers.get('content-type')?.includes('text/event-stream')) return res;
    state.cut = true;
    const reader = res.body!.getReader();
    let text = '';
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        text += new TextDecoder().decode(value);
        const end = text.indexOf('\n\n');
        if (end === -1) return;
        // The priming event and nothing after it; then the connection breaks.
        const first = text.slice(0, end + 2);
        state.primed = /^id: (.*)$/m.exec(first)?.[1] ?? '';
        controller.enqueue(new TextEncoder().encode(first));
        await reader.cancel();
        controller.error(new TypeError('connection reset (test)'));
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
  return { fetch: fetchFn, state };
}
