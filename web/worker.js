// The routing model's Web Worker: loads the skillpg_worker wasm module and answers the page's
// messages one at a time (a GPU run awaits, and the next message must not interleave with it).
//   {kind: 'load', id, model: ArrayBuffer, vocab: string, forceWebgpu?: bool} -> {kind: 'ready', id, backend}
//   {kind: 'embed', id, texts: string[]}                   -> {kind: 'embedded', id, vectors: Float32Array, backend}
//   {kind: 'decoder-load', id, model: ArrayBuffer, config?: string, tokenizer?: string, backend?: 'auto'|'webgpu'|'cpu'}
//                                                          -> {kind: 'ready', id, backend}
//     (a GGUF; with config.json and tokenizer.json, a Hugging Face model.safetensors)
//   {kind: 'decoder-backend', id, backend: 'auto'|'webgpu'|'cpu'} -> {kind: 'ready', id, backend}
//   {kind: 'decoder-route', id, skills: JSON [[name, description]], request, mode: 'chapter'|'choice'}
//                                                          -> {kind: 'routed', id, answer: JSON}
// Any failure (a panic included) answers {kind: 'error', id, message}.
// scripts/build-web names the module skillpg_worker.js; Trunk names it after the crate.
const wasm = import('./skillpg_worker.js').catch(() => import('./skillpg-worker.js'));
// The glue finds its `_bg.wasm` beside itself.
const ready = wasm.then((m) => m.default().then(() => m));
let queue = Promise.resolve();

async function handle(m) {
  try {
    const { load, embed, backend, decoderLoad, decoderLoadHf, decoderRoute, decoderBackend } = await ready;
    if (m.kind === 'load') {
      const line = await load(new Uint8Array(m.model), m.vocab, m.forceWebgpu === true);
      self.postMessage({ kind: 'ready', id: m.id, backend: line });
    } else if (m.kind === 'embed') {
      const vectors = await embed(m.texts);
      self.postMessage({ kind: 'embedded', id: m.id, vectors, backend: backend() }, [vectors.buffer]);
    } else if (m.kind === 'decoder-load') {
      const bytes = new Uint8Array(m.model);
      const choice = m.backend || 'auto';
      const line = await (typeof m.config === 'string' ? decoderLoadHf(bytes, m.config, m.tokenizer || '', choice) : decoderLoad(bytes, choice));
      self.postMessage({ kind: 'ready', id: m.id, backend: line });
    } else if (m.kind === 'decoder-backend') {
      self.postMessage({ kind: 'ready', id: m.id, backend: await decoderBackend(m.backend) });
    } else if (m.kind === 'decoder-route') {
      self.postMessage({ kind: 'routed', id: m.id, answer: await decoderRoute(m.skills, m.request, m.mode) });
    } else {
      throw new Error('unknown message ' + m.kind);
    }
  } catch (err) {
    self.postMessage({ kind: 'error', id: m.id, message: String((err && err.message) || err) });
  }
}

self.onmessage = (ev) => {
  queue = queue.then(() => handle(ev.data));
};
