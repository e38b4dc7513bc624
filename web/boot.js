// Starts the wasm app. Kept in a file (not inline) so the page's Content-Security-Policy can
// forbid inline scripts.
import init from './skillpg_app.js';

performance.mark('boot-start');
init({ module_or_path: './skillpg_app_bg.wasm' })
  .then(() => performance.mark('app-mounted'))
  .catch((err) => {
    const p = document.createElement('p');
    p.className = 'fatal';
    p.setAttribute('role', 'alert');
    p.textContent = 'The playground could not start in this browser: ' + err;
    document.body.append(p);
  });
