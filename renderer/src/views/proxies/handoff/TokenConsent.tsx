/**
 * Issue 26: the warning before the cluster's API token goes into the
 * hand-off bundle as the file `proxmox-token`. It is its own warning, not the
 * credentials one: that one is about proxies' passwords, and the token opens
 * the Proxmox API itself (clone, change, delete VMs). It is asked each time
 * the box is ticked and remembered nowhere, so a later bundle never carries
 * the token because of an old yes. Main puts the token in only when the
 * request says includeToken.
 */
export function TokenConsent({ clusterName, onAccept, onDecline }: { clusterName: string; onAccept: () => void; onDecline: () => void }) {
  return (
    <div role="alert" aria-label="The API token in the bundle" className="handoff-consent">
      <p>
        <strong>The API token in clear text.</strong> The file <code>proxmox-token</code> will hold the API token of {clusterName} as it is:
        anyone who reads it can use the Proxmox API with its rights, cloning, changing and deleting VMs. It is readable by you only (0600).
        Create the Secret from it, then delete it; never put it in git.
      </p>
      <div className="form-actions">
        <button type="button" className="primary" onClick={onAccept}>
          Include the token
        </button>
        <button type="button" onClick={onDecline}>
          Leave it out
        </button>
      </div>
    </div>
  );
}
