// Starts the wasm app. Kept in a file (not inline) so the page's Content-Security-Policy can
// forbid inline scripts; Trunk is told not to inject its own inline start (Trunk.toml).
// Every address is relative, so the page works under any path (a GitHub project site is served
// under /REPO/). scripts/build-web names the module skillpg_app.js; Trunk names it after the
// crate. The glue finds its `_bg.wasm` beside itself.
performance.mark('boot-start');
// The editor's bundle (CodeMirror; it sets `globalThis.skillpgEditor`) loads beside the app's
// module; the app mounts the editor once it is in (crates/skillpg-app's code_editor::loading),
// so the first frame of the checks does not wait for it.
globalThis.skillpgEditorLoad = import('./editor.js');
import('./skillpg_app.js')
  .catch(() => import('./skillpg-app.js'))
  .then((m) => m.default())
  .then(() => performance.mark('app-mounted'))
  .catch((err) => {
    const p = document.createElement('p');
    p.className = 'fatal';
    p.setAttribute('role', 'alert');
    p.textContent = 'The playground could not start in this browser: ' + err;
    document.body.append(p);
  });

// A trap in the wasm (an allocation that fails, an `unreachable`) is not a Rust panic: the
// panic hook never runs, and every later call into the module may trap again. Say so once, keep
// the saved work as it was before the action (the app saves nothing once `skillpgTrapped` is
// set), and drop a share link's fragment so that a reload does not open the same state again.
function onTrap(error) {
  if (!(error instanceof WebAssembly.RuntimeError)) return;
  globalThis.skillpgTrapped = true;
  if (location.hash.startsWith('#v1=')) {
    history.replaceState(null, '', location.pathname + location.search);
  }
  if (document.querySelector('[data-testid=fatal]')) return;
  const div = document.createElement('div');
  div.className = 'fatal';
  div.setAttribute('role', 'alert');
  div.setAttribute('data-testid', 'fatal');
  div.textContent =
    'The playground stopped: it ran out of memory or hit an internal error (' +
    error.message +
    '). Reload the page to continue: your saved work is as it was before this action.';
  document.body.append(div);
}
window.addEventListener('error', (e) => onTrap(e.error));
window.addEventListener('unhandledrejection', (e) => onTrap(e.reason));

// One writer of the saved work per browser: the tab that holds the Web Lock
// `skillpg-saved-work` saves. A tab that finds it held asks again for a moment (a reload's old
// page lets go of it within that time), then shows the work without saving it (`onWaiting`)
// until the person takes the lock (`steal`); the tab it was taken from stops saving (its
// request is aborted: `onLost`). A waiting tab never takes the lock by itself: a tab in the
// background must not become the writer because the tab in use reloaded. Without Web Locks (an
// insecure context) every tab saves, as before. The callbacks are crates/skillpg-app's
// browser::claim_writer.
globalThis.skillpgWriter = {
  claim(steal, onGranted, onWaiting, onLost) {
    const locks = navigator.locks;
    if (!locks) {
      onGranted(false);
      return;
    }
    let tries = 0;
    const ask = () =>
      locks
        .request('skillpg-saved-work', steal ? { steal: true } : { ifAvailable: true }, (lock) => {
          if (!lock) {
            if (++tries < 12) setTimeout(ask, 150);
            else onWaiting();
            return undefined;
          }
          onGranted(true);
          // Held for the page's life: the lock goes with the tab.
          return new Promise(() => {});
        })
        .catch(() => onLost());
    ask();
  },
};
