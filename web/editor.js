// The SKILL.md editor: CodeMirror 6, bundled by scripts/build-web (esbuild) into one module,
// dist/editor.js, served from the page's own origin. It holds no logic of its own: the findings,
// their fixes, the hovers, the token hints and the completions all come from the engine (the
// `skillpg-ide` crate, which the language server calls too), through the callbacks the page
// gives `create`. Positions here are CodeMirror's, UTF-16 code units; the page converts.
//
// CSP: nothing here writes markup or a `style` attribute. CodeMirror's own styles go through a
// constructable style sheet adopted by the document (below), which the page's
// `style-src 'self'` allows; the look is in web/style.css.
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection, Decoration, WidgetType, hoverTooltip, tooltips } from '@codemirror/view';
import { EditorState, Compartment, StateField, StateEffect, Annotation } from '@codemirror/state';
import { syntaxHighlighting, Language, defineLanguageFacet } from '@codemirror/language';
import { classHighlighter } from '@lezer/highlight';
import { parser as markdownParser, GFM } from '@lezer/markdown';
import { yamlFrontmatter } from '@codemirror/lang-yaml';
import { setDiagnostics, lintGutter, forEachDiagnostic } from '@codemirror/lint';
import { autocompletion } from '@codemirror/autocomplete';
import { history, defaultKeymap, historyKeymap, indentWithTab } from '@codemirror/commands';
import { StyleModule } from 'style-mod';

// CodeMirror mounts its structural styles through style-mod, which puts a <style> element in a
// document (it adopts a constructable sheet only in a shadow root), and the page's CSP refuses
// inline styles (its nonce facility needs a nonce per response, which a static page has not).
// So the modules go into one constructable sheet that the document adopts: CSSOM, not markup,
// which style-src allows. Same order rules as style-mod's (a later module takes precedence).
const adopted = new WeakMap();
StyleModule.mount = function mountAdopted(root, modules) {
  const doc = root.ownerDocument || root;
  let set = adopted.get(root);
  if (!set) {
    set = { sheet: new doc.defaultView.CSSStyleSheet(), modules: [] };
    adopted.set(root, set);
  }
  let pos = 0;
  let j = 0;
  for (const mod of Array.isArray(modules) ? modules : [modules]) {
    let index = set.modules.indexOf(mod);
    if (index < j && index > -1) {
      // Mounted before in another order: its rules move.
      let at = 0;
      for (let k = 0; k < index; k++) at += set.modules[k].rules.length;
      for (let k = 0; k < mod.rules.length; k++) set.sheet.deleteRule(at);
      set.modules.splice(index, 1);
      j--;
      pos -= mod.rules.length;
      index = -1;
    }
    if (index === -1) {
      set.modules.splice(j++, 0, mod);
      for (const rule of mod.rules) set.sheet.insertRule(rule, pos++);
    } else {
      while (j < index) pos += set.modules[j++].rules.length;
      pos += mod.rules.length;
      j++;
    }
  }
  if (!root.adoptedStyleSheets.includes(set.sheet)) root.adoptedStyleSheets = [set.sheet, ...root.adoptedStyleSheets];
};

// Markdown from @lezer/markdown directly: @codemirror/lang-markdown imports the HTML, CSS and
// JavaScript languages for embedded code (60 KB gzip more), which a SKILL.md's checks never use.
const markdownLanguage = new Language(defineLanguageFacet(), markdownParser.configure(GFM), [], 'markdown');

/// A change the page made (a fix, a load, a sample): not reported back as an edit.
const fromPage = Annotation.define();

const setHints = StateEffect.define();

/// A token count shown after its line: the engine's inlay hint.
class HintWidget extends WidgetType {
  constructor(label) {
    super();
    this.label = label;
  }
  eq(other) {
    return other.label === this.label;
  }
  toDOM() {
    const span = document.createElement('span');
    span.className = 'cm-token-hint';
    span.setAttribute('data-testid', 'token-hint');
    span.textContent = this.label;
    return span;
  }
  ignoreEvent() {
    return true;
  }
}

const hintField = StateField.define({
  create: () => Decoration.none,
  update(hints, tr) {
    hints = hints.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setHints)) {
        const len = tr.state.doc.length;
        hints = Decoration.set(
          e.value
            .filter((h) => h.at <= len)
            .map((h) => Decoration.widget({ widget: new HintWidget(h.label), side: 1 }).range(h.at)),
          true,
        );
      }
    }
    return hints;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/// A finding's hover: its message, then its rule (a link into the page's rule reference) and the
/// source the rule cites. Text nodes only.
function findingMessage(mark) {
  return () => {
    const div = document.createElement('div');
    div.className = 'cm-finding';
    const message = document.createElement('p');
    message.textContent = mark.message;
    div.append(message);
    const meta = document.createElement('p');
    meta.className = 'cm-finding-meta';
    const rule = document.createElement('a');
    rule.href = mark.ruleHref;
    rule.textContent = `${mark.code} ${mark.rule}`;
    rule.setAttribute('data-testid', 'mark-rule');
    meta.append(rule, ' · ');
    const source = document.createElement('a');
    source.href = mark.sourceHref;
    source.target = '_blank';
    source.rel = 'noopener noreferrer';
    source.textContent = mark.source;
    meta.append(source);
    div.append(meta);
    return div;
  };
}

/// Whether an insert is large enough to be taken as one change here rather than by the
/// browser's editing: Chromium inserts a many-line text into an editable element one paragraph
/// at a time, in time that grows with the square of its lines (a 5 MB input method's insert
/// never finished), while CodeMirror's change is linear. Short inserts stay with the browser
/// (and an input method's composition with them).
function insertsWhole(text) {
  if (text.length > 64 * 1024) return true;
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) if (++lines > 100) return true;
  return false;
}

/// The one editor on the page (the tests and the benchmarks read it).
let current = null;

/// Mounts an editor in `parent`. `options`: `text`, `readOnly`, `onChange(text)` (a person's
/// edit), `onFix(id)` (a finding's quick fix chosen), `onHover(pos)` (`{ text, from, to }` or
/// null), `onComplete(pos, explicit)` (`{ from, options: [{ label, detail, apply, type }] }` or
/// null).
export function create(parent, options) {
  const readOnly = new Compartment();
  const readOnlyExt = (yes) => [EditorState.readOnly.of(yes), EditorView.editable.of(!yes), EditorView.contentAttributes.of({ 'aria-readonly': String(yes) })];
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        // Tooltips in the page's body: the left pane clips what overflows it.
        tooltips({ parent: document.body }),
        lineNumbers(),
        lintGutter(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        EditorView.lineWrapping,
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        yamlFrontmatter({ content: markdownLanguage }),
        syntaxHighlighting(classHighlighter),
        hintField,
        autocompletion({
          override: [
            (ctx) => {
              const r = options.onComplete(ctx.pos, ctx.explicit);
              return r && r.options.length ? { from: r.from, options: r.options, validFor: /^[\w-]*$/ } : null;
            },
          ],
        }),
        hoverTooltip((_view, pos) => {
          const r = options.onHover(pos);
          if (!r) return null;
          return {
            pos: r.from,
            end: r.to,
            above: true,
            create() {
              const dom = document.createElement('div');
              dom.className = 'cm-engine-hover';
              dom.setAttribute('data-testid', 'editor-hover');
              dom.textContent = r.text;
              return { dom };
            },
          };
        }),
        EditorView.contentAttributes.of({ 'data-testid': 'editor', id: 'skill-md', 'aria-label': 'SKILL.md text', spellcheck: 'false' }),
        readOnly.of(readOnlyExt(Boolean(options.readOnly))),
        EditorView.domEventHandlers({
          beforeinput(event, view) {
            const text = event.data ?? event.dataTransfer?.getData('text/plain');
            if (!text || !event.cancelable || view.state.readOnly || !insertsWhole(text)) return false;
            event.preventDefault();
            view.dispatch(view.state.replaceSelection(text), { userEvent: 'input.paste', scrollIntoView: true });
            return true;
          },
        }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && !u.transactions.some((t) => t.annotation(fromPage))) {
            options.onChange(u.state.doc.toString());
          }
        }),
      ],
    }),
  });
  const editor = {
    view,
    text: () => view.state.doc.toString(),
    /// Replaces the text with `text`, as the one stretch that differs (the caret, the scroll
    /// and the undo history stay where they make sense).
    setText(text) {
      const old = view.state.doc.toString();
      if (old === text) return;
      let start = 0;
      const max = Math.min(old.length, text.length);
      while (start < max && old.charCodeAt(start) === text.charCodeAt(start)) start++;
      let tail = 0;
      while (tail < max - start && old.charCodeAt(old.length - 1 - tail) === text.charCodeAt(text.length - 1 - tail)) tail++;
      view.dispatch({
        changes: { from: start, to: old.length - tail, insert: text.slice(start, text.length - tail) },
        annotations: fromPage.of(true),
      });
    },
    setReadOnly(yes) {
      view.dispatch({ effects: readOnly.reconfigure(readOnlyExt(yes)) });
    },
    /// The findings as marks: `[{ from, to, severity, message, code, rule, ruleHref, source,
    /// sourceHref, fixes: [{ id, title }] }]`.
    setMarks(marks) {
      const len = view.state.doc.length;
      const diagnostics = marks
        .filter((m) => m.to <= len)
        .map((m) => ({
          from: m.from,
          to: m.to,
          severity: m.severity,
          source: m.code,
          message: m.message,
          markClass: 'cm-mark-' + m.code,
          renderMessage: findingMessage(m),
          actions: m.fixes.map((f) => ({ name: f.title, apply: () => options.onFix(f.id) })),
        }));
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    /// The engine's token counts: `[{ at, label }]`.
    setHints(hints) {
      view.dispatch({ effects: setHints.of(hints) });
    },
    /// Selects `from..to`, scrolls it into view and focuses the editor.
    select(from, to) {
      const len = view.state.doc.length;
      view.dispatch({ selection: { anchor: Math.min(from, len), head: Math.min(to, len) }, scrollIntoView: true });
      view.focus();
    },
    /// The marks now shown (for the tests): `[{ from, to, severity, code }]`.
    marks() {
      const out = [];
      forEachDiagnostic(view.state, (d, from, to) => out.push({ from, to, severity: d.severity, code: d.source }));
      return out;
    },
    destroy() {
      view.destroy();
      if (current === editor) current = null;
    },
  };
  current = editor;
  return editor;
}

globalThis.skillpgEditor = {
  create,
  get current() {
    return current;
  },
};
