/**
 * After a refused submit: moves the focus to the form's first field marked invalid
 * (`aria-invalid`), else to `fallback` (a selector) — once React has marked it, a frame later —
 * so a keyboard user lands on what to fix, as a screen reader announces its message.
 */
export function focusFirstInvalid(form: HTMLFormElement, fallback?: string): void {
  requestAnimationFrame(() => {
    const field =
      form.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      (fallback ? form.querySelector<HTMLElement>(fallback) : null);
    field?.focus();
  });
}
