// The in-browser engine of the static page (scripts/web/build.sh): the API of `cutoff serve`
// compiled to WebAssembly (cutoff_web.js and cutoff_web_bg.wasm, from wasm-bindgen), run in
// this worker so that a long search does not freeze the page. app.js posts
// {id, method, target, body} and gets {id, status, body} back, as a server would answer;
// `fatal` says the engine failed and this worker is to be replaced.
import init, { request } from "./cutoff_web.js";

const ready = init();

self.onmessage = async (e) => {
  const { id, method, target, body } = e.data;
  try {
    await ready;
    const answer = request(method, target, body ?? undefined);
    const reply = { id, status: answer.status, body: answer.body };
    answer.free();
    self.postMessage(reply);
  } catch (err) {
    const error = String((err && err.message) || err);
    self.postMessage({ id, status: 500, body: JSON.stringify({ error }), fatal: true });
  }
};
