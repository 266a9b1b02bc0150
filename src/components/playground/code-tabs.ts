/**
 * A playground's TypeScript | PyTorch tabs (WAI-ARIA tabs: arrows, Home, End) and its copy buttons. It runs
 * before interaction, so it stays a few hundred bytes; panels and code are server-rendered.
 */
export function wireCodeTabs(root: HTMLElement): void {
  const tabs = [...root.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const select = (tab: HTMLButtonElement, focus: boolean) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      document.getElementById(t.getAttribute('aria-controls')!)!.hidden = !on;
    }
    if (focus) tab.focus();
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => select(tab, false));
    tab.addEventListener('keydown', (e) => {
      const to = (
        { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 } as Record<
          string,
          number
        >
      )[e.key];
      if (to === undefined) return;
      e.preventDefault();
      select(tabs[(to + tabs.length) % tabs.length]!, true);
    });
  });
  // Run shows what runs: the TypeScript.
  if (tabs[0])
    root
      .querySelector('[data-action="run"]')
      ?.addEventListener('click', () => select(tabs[0]!, false));

  const status = root.querySelector<HTMLElement>('[data-copied]');
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-copy]')) {
    button.addEventListener('click', async () => {
      const text = document.getElementById(button.dataset.copy!)?.textContent ?? '';
      try {
        await navigator.clipboard.writeText(text);
        if (status) status.textContent = 'Copied to the clipboard.';
      } catch {
        if (status)
          status.textContent =
            'The browser refused the clipboard: select the text and copy it by hand.';
      }
    });
  }
}
