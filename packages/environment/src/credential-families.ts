/**
 * Known families of publication credentials and approval authority (R5.2). A request to place
 * one of these in a child's environment — from a manifest or from the operator — is refused on
 * construction. The list names families, not every possible spelling: a name that matches none
 * is not thereby safe, which is why the environment is constructed from an allowlist and never
 * filtered (R5.1), and why the residuals are recorded on every attempt (R5.3).
 */
export interface CredentialFamily {
  family: string;
  /** Exact names, compared case-insensitively. */
  names: readonly string[];
  /** Name prefixes, compared case-insensitively. */
  prefixes: readonly string[];
}

export const CREDENTIAL_FAMILIES: readonly CredentialFamily[] = [
  {
    family: 'github',
    names: ['GITHUB_TOKEN', 'GH_TOKEN', 'GH_ENTERPRISE_TOKEN', 'GITHUB_ENTERPRISE_TOKEN', 'GITHUB_PAT', 'HOMEBREW_GITHUB_API_TOKEN'],
    prefixes: [],
  },
  { family: 'gitlab', names: ['GITLAB_TOKEN', 'CI_JOB_TOKEN', 'GL_TOKEN'], prefixes: [] },
  { family: 'other-forges', names: ['GITEA_TOKEN', 'FORGEJO_TOKEN', 'CODEBERG_TOKEN'], prefixes: ['BITBUCKET_'] },
  {
    family: 'ci-runtime',
    names: ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_URL', 'CIRCLE_TOKEN', 'BUILDKITE_AGENT_ACCESS_TOKEN'],
    prefixes: [],
  },
  { family: 'npm', names: ['NPM_TOKEN', 'NODE_AUTH_TOKEN', 'YARN_NPM_AUTH_TOKEN'], prefixes: ['npm_config__auth', 'npm_config_//'] },
  {
    family: 'package-registries',
    names: [
      'PYPI_TOKEN',
      'TWINE_PASSWORD',
      'TWINE_USERNAME',
      'CARGO_REGISTRY_TOKEN',
      'GEM_HOST_API_KEY',
      'NUGET_API_KEY',
      'HF_TOKEN',
      'HUGGING_FACE_HUB_TOKEN',
    ],
    prefixes: ['CARGO_REGISTRIES_'],
  },
  { family: 'aws', names: [], prefixes: ['AWS_'] },
  {
    family: 'google-cloud',
    names: ['GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_CREDENTIALS', 'GOOGLE_OAUTH_ACCESS_TOKEN', 'CLOUDSDK_AUTH_ACCESS_TOKEN'],
    prefixes: ['GCLOUD_'],
  },
  { family: 'azure', names: [], prefixes: ['AZURE_', 'ARM_CLIENT_', 'ARM_ACCESS_KEY'] },
  { family: 'ssh-agent', names: ['SSH_AUTH_SOCK', 'SSH_AGENT_PID'], prefixes: [] },
  { family: 'gpg-agent', names: ['GPG_AGENT_INFO', 'GNUPGHOME'], prefixes: [] },
  { family: 'containers', names: ['DOCKER_AUTH_CONFIG', 'DOCKER_PASSWORD', 'REGISTRY_AUTH_FILE', 'KUBECONFIG'], prefixes: [] },
  {
    family: 'other-clouds',
    names: ['HEROKU_API_KEY', 'DIGITALOCEAN_ACCESS_TOKEN', 'VAULT_TOKEN', 'CLOUDFLARE_API_TOKEN', 'FLY_API_TOKEN', 'VERCEL_TOKEN', 'NETLIFY_AUTH_TOKEN'],
    prefixes: [],
  },
  { family: 'infrastructure', names: ['TFE_TOKEN', 'PULUMI_ACCESS_TOKEN'], prefixes: ['TF_TOKEN_'] },
  { family: 'secret-stores', names: ['OP_SERVICE_ACCOUNT_TOKEN', 'OP_CONNECT_TOKEN', 'DOPPLER_TOKEN', 'INFISICAL_TOKEN'], prefixes: ['OP_SESSION_'] },
];

/** The family a name belongs to, or the word `none`. */
export function credentialFamilyOf(name: string): string {
  const upper = name.toUpperCase();
  for (const family of CREDENTIAL_FAMILIES) {
    if (family.names.some((known) => known.toUpperCase() === upper)) return family.family;
    if (family.prefixes.some((prefix) => upper.startsWith(prefix.toUpperCase()))) return family.family;
  }
  return 'none';
}
