/** Settings: clusters (with the connect wizard), export and import, polling, task limits, checks, history, theme. */
import { useEffect, useState } from 'react';
import { useSettings, type WizardSeed } from '../../stores/settings';
import { ViewFrame } from '../Placeholder';
import { AlertRulesSection } from './AlertRulesSection';
import { ChecksSection } from './ChecksSection';
import { ClustersSection } from './ClustersSection';
import { GeneralSection } from './GeneralSection';
import { HistorySection } from './HistorySection';
import { TaskLimitsSection } from './TaskLimitsSection';
import { ThemeSection } from './ThemeSection';
import { TransferSection } from './TransferSection';
import { WebhooksSection } from './WebhooksSection';
import { ConnectWizard } from './wizard/ConnectWizard';

export function SettingsView() {
  const requested = useSettings((s) => s.connectWizardRequested);
  const [wizard, setWizard] = useState(false);
  const [seed, setSeed] = useState<WizardSeed>();
  useEffect(() => {
    if (!requested) return;
    setSeed(useSettings.getState().connectWizardSeed);
    setWizard(true);
    useSettings.getState().connectWizardShown();
  }, [requested]);
  return (
    <ViewFrame title="Settings">
      <div className="settings-grid">
        <ClustersSection
          onConnect={() => {
            setSeed(undefined);
            setWizard(true);
          }}
        />
        <TransferSection />
        <GeneralSection />
        <TaskLimitsSection />
        <ChecksSection />
        <AlertRulesSection />
        <WebhooksSection />
        <HistorySection />
        <ThemeSection />
      </div>
      {wizard && <ConnectWizard seed={seed} onClose={() => setWizard(false)} />}
    </ViewFrame>
  );
}
