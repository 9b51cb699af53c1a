import WebSocket from 'ws';

/**
 * A full garbage collection in another Node process, through its inspector
 * (started with `--inspect=127.0.0.1:0`): RSS read right after it is what the
 * process keeps, not where its heap's saw happened to stand.
 */
export async function collectGarbage(debuggerUrl: string, timeoutMs = 15_000): Promise<void> {
  const ws = new WebSocket(debuggerUrl);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('inspector: no answer')), timeoutMs);
      ws.once('error', reject);
      ws.once('open', () => {
        // Twice: the first run's finalizers free more for the second.
        let answered = 0;
        ws.on('message', () => {
          answered += 1;
          if (answered === 2) {
            clearTimeout(timer);
            resolve();
          }
        });
        ws.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
        ws.send(JSON.stringify({ id: 2, method: 'HeapProfiler.collectGarbage' }));
      });
    });
  } finally {
    ws.close();
  }
}
