// Starts the wasm app. Kept in a file (not inline) so the page's Content-Security-Policy can
// forbid inline scripts; Trunk is told not to inject its own inline start (Trunk.toml).
// Every address is relative, so the page works under any path (a GitHub project site is served
// under /REPO/). scripts/build-web names the module skillpg_app.js; Trunk names it after the
// crate. The glue finds its `_bg.wasm` beside itself.
performance.mark('boot-start');
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
