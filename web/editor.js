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

/// Whether a non-empty selection of `state` crosses a line break.
function spansLines(state) {
  return state.selection.ranges.some((r) => !r.empty && state.doc.lineAt(r.from).number !== state.doc.lineAt(r.to).number);
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

/// The change from the document of `state` to `text` as the one stretch that differs, or null
/// when they are equal. Positions are the document's: in a CRLF document (its line separator
/// `\r\n`) a line break is one position and two characters of the text, so a CRLF is never cut
/// in two and the offsets count each as one.
function oneStretch(state, text) {
  const old = state.sliceDoc();
  if (old === text) return null;
  let start = 0;
  const max = Math.min(old.length, text.length);
  while (start < max && old.charCodeAt(start) === text.charCodeAt(start)) start++;
  let tail = 0;
  while (tail < max - start && old.charCodeAt(old.length - 1 - tail) === text.charCodeAt(text.length - 1 - tail)) tail++;
  const crlf = state.lineBreak === '\r\n';
  if (crlf) {
    if (start > 0 && old[start - 1] === '\r' && old[start] === '\n') start--;
    const end = old.length - tail;
    if (tail > 0 && old[end - 1] === '\r' && old[end] === '\n') tail--;
  }
  const at = (offset) => {
    if (!crlf) return offset;
    let breaks = 0;
    for (let i = old.indexOf('\r\n'); i !== -1 && i + 1 < offset; i = old.indexOf('\r\n', i + 2)) breaks++;
    return offset - breaks;
  };
  return { from: at(start), to: at(old.length - tail), insert: text.slice(start, text.length - tail) };
}

/// A hover's blocks (`skillpg_app::markdown::Block`, from the engine's Markdown) built as
/// elements: headings, paragraphs, lists, tables and code, every string a text node.
export function renderHover(dom, hover) {
  const runs = (parent, inlines) => {
    for (const r of inlines) {
      if (r.kind === 'code') {
        const code = document.createElement('code');
        code.textContent = r.text;
        parent.append(code);
      } else parent.append(r.text);
    }
    return parent;
  };
  const el = (tag, inlines) => runs(document.createElement(tag), inlines);
  for (const b of hover.blocks) {
    if (b.kind === 'heading') dom.append(el('h4', b.runs));
    else if (b.kind === 'paragraph') dom.append(el('p', b.runs));
    else if (b.kind === 'list') {
      const ul = document.createElement('ul');
      for (const item of b.items) ul.append(el('li', item));
      dom.append(ul);
    } else if (b.kind === 'code') {
      const pre = document.createElement('pre');
      const code = document.createElement('code');
      code.textContent = b.code;
      pre.append(code);
      dom.append(pre);
    } else if (b.kind === 'table') {
      const table = document.createElement('table');
      const head = document.createElement('tr');
      for (const cell of b.head) head.append(el('th', cell));
      const thead = document.createElement('thead');
      thead.append(head);
      const tbody = document.createElement('tbody');
      for (const row of b.rows) {
        const tr = document.createElement('tr');
        for (const cell of row) tr.append(el('td', cell));
        tbody.append(tr);
      }
      table.append(thead, tbody);
      dom.append(table);
    }
  }
}

/// The one editor on the page (the tests and the benchmarks read it).
let current = null;

/// Mounts an editor in `parent`. `options`: `text`, `key` (the document's name: see
/// `setDocument`), `readOnly`, `onChange(text)` (a person's edit), `onFix(id)` (a finding's
/// quick fix chosen), `onHover(pos)` (`{ text, from, to }` or null), `onComplete(pos, explicit)`
/// (`{ from, options: [{ label, detail, apply, type }] }` or null).
///
/// Undo belongs to one file: each document (named by its key) has an editor state of its own,
/// with its own history, and `setDocument` swaps them (CodeMirror's recipe for several
/// documents in one view). A load, a sample or a restore names a new document, whose history
/// starts empty; only edits of the one document (typing, a quick fix) enter its history.
export function create(parent, options) {
  const readOnly = new Compartment();
  const readOnlyExt = (yes) => [EditorState.readOnly.of(yes), EditorView.editable.of(!yes), EditorView.contentAttributes.of({ 'aria-readonly': String(yes) })];
  // The keyboard is never trapped: the editor starts in CodeMirror's tab-focus mode, where Tab
  // moves focus on as everywhere else on the page. Ctrl+M (CodeMirror's own binding) switches
  // Tab to indenting and back; while it indents, Escape then Tab still leaves (CodeMirror's
  // "Escape, then Tab" rule).
  const extensions = [
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
          renderHover(dom, r);
          return { dom };
        },
      };
    }),
    EditorView.contentAttributes.of({ 'data-testid': 'editor', id: 'skill-md', 'aria-label': 'SKILL.md text', 'aria-describedby': 'editor-keys', spellcheck: 'false', tabindex: '0' }),
    EditorView.domEventHandlers({
      beforeinput(event, view) {
        if (!event.cancelable || view.state.readOnly || view.composing) return false;
        // Typing or deleting over a selection that spans lines is done here, not by the
        // browser's own editing: merging the lines, it writes inline style attributes, which
        // the page's CSP (style-src 'self') refuses and reports, once per line.
        if (spansLines(view.state) && (event.inputType === 'insertText' || event.inputType.startsWith('delete'))) {
          event.preventDefault();
          const typed = event.inputType === 'insertText' ? (event.data ?? '') : '';
          view.dispatch(view.state.replaceSelection(typed), { userEvent: typed ? 'input.type' : 'delete.selection', scrollIntoView: true });
          return true;
        }
        const text = event.data ?? event.dataTransfer?.getData('text/plain');
        if (!text || !insertsWhole(text)) return false;
        event.preventDefault();
        view.dispatch(view.state.replaceSelection(text), { userEvent: 'input.paste', scrollIntoView: true });
        return true;
      },
    }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged && !u.transactions.some((t) => t.annotation(fromPage))) {
        options.onChange(u.state.sliceDoc());
      }
    }),
  ];
  // A CRLF file keeps its line endings: its lines are split on `\r\n` alone and joined with
  // it, so a keystroke never rewrites every line ending (each break is one position, which the
  // page's offsets count: skillpg_ide::EditorOffsets).
  const freshState = (text, ro) =>
    EditorState.create({
      doc: text,
      extensions: [...extensions, readOnly.of(readOnlyExt(Boolean(ro))), text.includes('\r\n') ? EditorState.lineSeparator.of('\r\n') : []],
    });
  const view = new EditorView({ parent, state: freshState(options.text, options.readOnly) });
  // The other documents' states, by key; the shown one is the view's.
  const states = new Map();
  let shownKey = options.key ?? null;
  view.setTabFocusMode(true);
  const editor = {
    view,
    // The text with the document's own line breaks (`doc.toString()` joins with `\n`).
    text: () => view.state.sliceDoc(),
    /// The shown document's key.
    key: () => shownKey,
    /// Shows the document `key` holding `text`. Another key swaps the editor's state for that
    /// document's own (its history, caret and scroll), or a new one when it has none or its
    /// text was changed elsewhere meanwhile; the same key takes `text` as one change of its
    /// history (a fix made in another view, which undo takes back like any edit).
    setDocument(key, text, ro) {
      if (key === shownKey) {
        editor.setText(text);
        return;
      }
      if (shownKey !== null) states.set(shownKey, view.state);
      const kept = states.get(key);
      states.delete(key);
      view.setState(kept && kept.sliceDoc() === text ? kept : freshState(text, ro));
      shownKey = key;
      // Keys of an older generation (`generation/...`) name documents no longer loaded.
      const generation = String(key).split('/')[0];
      for (const k of states.keys()) if (String(k).split('/')[0] !== generation) states.delete(k);
    },
    /// Replaces the text with `text`, as the one stretch that differs (the caret, the scroll
    /// and the undo history stay where they make sense): a change the page made, not reported
    /// back as an edit.
    setText(text) {
      const changes = oneStretch(view.state, text);
      if (changes) view.dispatch({ changes, annotations: fromPage.of(true) });
    },
    /// Changes the text to `text` as a person's edit (a quick fix): reported back as one, and
    /// one step of the document's history, which undo takes back and redo applies again.
    editTo(text) {
      const changes = oneStretch(view.state, text);
      if (changes) view.dispatch({ changes, userEvent: 'input.fix', scrollIntoView: true });
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
  renderHover,
  get current() {
    return current;
  },
};
