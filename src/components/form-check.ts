// Browser side of Form: while a person types, the page's own form loop checks the form (its
// fields posted with the form-check header, console/form-loop.ts) and this shows each message beside its
// field, and takes it away as soon as the value is right. Only fields the person changed, and
// those the server already marked, are told: an untouched empty field is not scolded. Nothing
// in a field is ever changed here.

const CHECK_AFTER_MS = 300;

/**
 * Wires every `form.sb-form` of the page with labelled fields (`.sb-field[data-field]`), except
 * those that are not the form loop's or whose fields an island checks itself (`data-form-check="off"`).
 * @example startFormChecks()
 */
export function startFormChecks(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form.sb-form:not([data-form-check="off"])')) {
    if (form.dataset.formCheck === 'on' || !form.querySelector('.sb-field[data-field]')) continue;
    form.dataset.formCheck = 'on';
    watch(form);
  }
}

function watch(form: HTMLFormElement): void {
  // the fields the server rendered with a message are told from the start
  const told = new Set([...form.querySelectorAll<HTMLElement>('.sb-field-invalid[data-field]')].map((field) => field.dataset.field!));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const check = async () => {
    const mine = ++asked;
    try {
      const res = await fetch(form.action || location.href, {
        method: 'POST', body: new FormData(form), headers: { accept: 'application/json', 'x-signalbox-form-check': '1' },
      });
      const answer = res.ok ? ((await res.json()) as { errors?: Record<string, string> }) : null;
      // an answer overtaken by a later one is not shown
      if (answer?.errors && mine === asked) show(form, answer.errors, told);
    } catch {
      // offline for a moment: the next change asks again, the submit checks anyway
    }
  };
  const changed = (event: Event) => {
    const name = (event.target as HTMLInputElement | null)?.closest('.sb-field[data-field]')?.getAttribute('data-field');
    if (name) told.add(name);
    clearTimeout(timer);
    timer = setTimeout(() => void check(), CHECK_AFTER_MS);
  };
  form.addEventListener('input', changed);
  form.addEventListener('change', changed);
  form.addEventListener('submit', () => clearTimeout(timer));
}

/** Each told field shows its message, or none; the hint comes back when the message goes. */
function show(form: HTMLFormElement, errors: Record<string, string>, told: Set<string>): void {
  for (const field of form.querySelectorAll<HTMLElement>('.sb-field[data-field]')) {
    const name = field.dataset.field!;
    if (!told.has(name)) continue;
    const message = Object.hasOwn(errors, name) ? errors[name]! : '';
    const id = `${name}-error`;
    let note = field.querySelector<HTMLElement>(`:scope > .field-error`);
    if (message && !note) {
      note = Object.assign(document.createElement('small'), { id, className: 'field-error' });
      note.setAttribute('role', 'alert');
      field.append(note);
    }
    if (note && message) {
      if (note.textContent !== message) note.textContent = message;
    } else note?.remove();
    field.classList.toggle('sb-field-invalid', Boolean(message));
    const hint = field.querySelector<HTMLElement>(':scope > .sb-field-hint');
    if (hint) hint.hidden = Boolean(message);
    for (const control of field.querySelectorAll<HTMLElement>(`[name="${CSS.escape(name)}"]`)) {
      if (message) {
        control.setAttribute('aria-invalid', 'true');
        control.setAttribute('aria-describedby', id);
      } else if (control.getAttribute('aria-describedby') === id) {
        control.removeAttribute('aria-invalid');
        control.removeAttribute('aria-describedby');
      }
    }
  }
}
