import { useEffect } from 'react';
import { ConnectionBanner, StaleFrame } from './components/ConnectionBanner';
import { LeaveGuard } from './components/LeaveGuard';
import { Nav } from './components/Nav';
import { SecretBanner } from './components/SecretBanner';
import { MAIN_CONTENT_ID, ShortcutHelp, SkipLink } from './components/Shortcuts';
import { StatusBar } from './components/StatusBar';
import { CommandPalette } from './components/search/CommandPalette';
import { useUi, resolveTheme, views } from './stores/ui';
import { CurrentView } from './views';
import { TemplateBuilderHost } from './views/templates/builder/BuildTemplateDialog';

function useThemeOnDocument() {
  const theme = useUi((s) => s.theme);
  useEffect(() => {
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    const apply = () => {
      document.documentElement.dataset.theme = resolveTheme(theme, media?.matches ?? false);
    };
    apply();
    media?.addEventListener('change', apply);
    return () => media?.removeEventListener('change', apply);
  }, [theme]);
}

function useViewShortcuts() {
  const setView = useUi((s) => s.setView);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const index = Number(e.key) - 1;
      const target = views[index];
      if (target) {
        e.preventDefault();
        setView(target.id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setView]);
}

export function App() {
  const view = useUi((s) => s.view);
  useThemeOnDocument();
  useViewShortcuts();
  return (
    <div className="app">
      <SkipLink />
      <Nav />
      <main className="content" id={MAIN_CONTENT_ID} tabIndex={-1}>
        <ConnectionBanner />
        <SecretBanner />
        <StaleFrame>
          <CurrentView view={view} />
        </StaleFrame>
      </main>
      <StatusBar />
      <ShortcutHelp />
      <CommandPalette />
      <TemplateBuilderHost />
      <LeaveGuard />
    </div>
  );
}
