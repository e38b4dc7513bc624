// The routing models' Web Worker. It moves bytes and nothing else: the page posts
// [id, message JSON, ArrayBuffer or null]; the worker's wasm (skillpg_worker's `handle`) reads
// the message, typed in Rust (skillpg_routing::protocol), and answers [answer JSON, bytes or
// null]; this posts back [id, answer JSON, ArrayBuffer or null], the buffers moved, not copied.
// A throw (a panic, or a module that failed to load) posts [id, null, null, message].
// Messages are answered one at a time: a GPU run awaits, and the next must not interleave with it.
// scripts/build-web names the module skillpg_worker.js; Trunk names it after the crate.
const wasm = import('./skillpg_worker.js').catch(() => import('./skillpg-worker.js'));
// The glue finds its `_bg.wasm` beside itself.
const ready = wasm.then((m) => m.default().then(() => m));
let queue = Promise.resolve();

async function answer([id, message, buffer]) {
  try {
    const { handle } = await ready;
    const [reply, bytes] = await handle(message, buffer ? new Uint8Array(buffer) : undefined);
    const out = bytes ? bytes.buffer : null;
    self.postMessage([id, reply, out], out ? [out] : []);
  } catch (err) {
    self.postMessage([id, null, null, String((err && err.message) || err)]);
  }
}

self.onmessage = (ev) => {
  queue = queue.then(() => answer(ev.data));
};
