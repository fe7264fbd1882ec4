/**
 * Issue 24: where a proxy's username and password are asked for, by the
 * areas that send or hand them out (the proxy check, Test, the exports) and
 * that must not own the secret keeper. The credentials area implements it
 * over the secret keeper (keyring); until a proxy has credentials, or for a
 * proxy the app did not make, the answer is undefined and the proxy is used
 * without them. A port of its own (main/ports), like the Notifier.
 */
export interface ProxyCredentials {
  username: string;
  /** Clear text: never logged, journalled, recorded or sent anywhere but to this proxy (docs/security.md). */
  password: string;
}

export interface ProxyCredentialLookup {
  credentialsOf(clusterId: string, vmid: number): Promise<ProxyCredentials | undefined>;
}

/** No credentials anywhere: proxies are used as they are (the default until the credentials area is wired). */
export const noCredentials: ProxyCredentialLookup = { credentialsOf: async () => undefined };
