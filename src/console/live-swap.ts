// Browser helper of the console's live parts (the dashboard's task lists, the workflow run page):
// they re-read their own server render and swap it in. A person may be typing inside that part
// (an approval comment, a filter, ticked rows), so the swap carries what they changed, the focus
// and the caret over to the fresh markup: a live update never throws away what someone typed.

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const CONTROLS = 'input[name], textarea[name], select[name]';
const TEXT_INPUTS = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'number', '']);

/**
 * Replaces `current` with `fresh` (a parsed copy of the same part) and carries into it every
 * control the person changed or is in: its value or ticks, and for the focused one the focus,
 * the caret and the scroll position of a text area.
 * @example swapLivePart(document.getElementById('wf-live')!, parsed.getElementById('wf-live')!)
 */
export function swapLivePart(current: HTMLElement, fresh: HTMLElement): void {
  const twins = controlsByKey(fresh);
  const pairs: { from: Control; to: Control }[] = [];
  for (const [key, list] of controlsByKey(current)) {
    list.forEach((from, i) => {
      const to = twins.get(key)?.[i];
      if (to && to.tagName === from.tagName) pairs.push({ from, to });
    });
  }
  const focused = document.activeElement;
  current.replaceWith(fresh);
  for (const pair of pairs) {
    if (changedByPerson(pair.from)) carryValue(pair.from, pair.to);
    if (pair.from === focused) restoreFocus(pair);
  }
}

/**
 * Each named control of `root` under a key that finds its twin in another render of the same
 * part: its form (action, `_form` and the form's hidden fields, e.g. which approval node), its
 * name and type, and a box's value; controls with the same key pair up in document order.
 */
function controlsByKey(root: HTMLElement): Map<string, Control[]> {
  const map = new Map<string, Control[]>();
  for (const control of root.querySelectorAll<Control>(CONTROLS)) {
    if (control instanceof HTMLInputElement && control.type === 'hidden') continue;
    const key = `${formKey(control.form)}|${control.name}|${control.type}|${isBox(control) ? control.value : ''}`;
    const list = map.get(key);
    if (list) list.push(control);
    else map.set(key, [control]);
  }
  return map;
}

function formKey(form: HTMLFormElement | null): string {
  if (!form) return '';
  const hidden = [...form.querySelectorAll<HTMLInputElement>('input[type=hidden][name]')].map((h) => `${h.name}=${h.value}`).sort();
  return `${form.getAttribute('action') ?? ''}?${hidden.join('&')}`;
}

const isBox = (control: Control): control is HTMLInputElement =>
  control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio');

/** True when the control no longer shows what the server rendered into it. */
function changedByPerson(control: Control): boolean {
  if (isBox(control)) return control.checked !== control.defaultChecked || control.indeterminate;
  if (control instanceof HTMLSelectElement) return [...control.options].some((o) => o.selected !== o.defaultSelected);
  return control.value !== control.defaultValue;
}

function carryValue(from: Control, to: Control): void {
  if (isBox(from) && isBox(to)) {
    to.checked = from.checked;
    to.indeterminate = from.indeterminate;
  } else if (from instanceof HTMLSelectElement && to instanceof HTMLSelectElement) {
    const chosen = new Set([...from.selectedOptions].map((o) => o.value));
    for (const option of to.options) option.selected = chosen.has(option.value);
  } else {
    to.value = from.value;
  }
}

function restoreFocus({ from, to }: { from: Control; to: Control }): void {
  to.focus({ preventScroll: true });
  const typed = to instanceof HTMLTextAreaElement || (to instanceof HTMLInputElement && TEXT_INPUTS.has(to.type));
  if (!typed || from instanceof HTMLSelectElement || to instanceof HTMLSelectElement) return;
  try {
    to.setSelectionRange(from.selectionStart, from.selectionEnd, from.selectionDirection ?? undefined);
  } catch {
    // an input type without a caret (number): the value is there, the caret at its end
  }
  to.scrollTop = from.scrollTop;
}
