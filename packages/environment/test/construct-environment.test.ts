import { describe, expect, it } from 'vitest';
import { CREDENTIAL_FAMILIES, constructEnvironment, credentialFamilyOf, selectPassedNames } from '@statecraft/environment';
import { ENVIRONMENT_RESIDUALS } from '@statecraft/adapter';

const OPERATOR = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/home/operator',
  LANG: 'en_GB.UTF-8',
  EDITOR: 'vim',
  GITHUB_TOKEN: 'ghp_x',
  AWS_ACCESS_KEY_ID: 'AKIA',
  SSH_AUTH_SOCK: '/run/agent.sock',
  PROVIDER_API_KEY: 'sk-secret',
};

const bindings = { runId: 'r', attempt: 3, temporaryDirectory: '/tmp/statecraft-r-3-abc', containment: 'pid-namespace' as const };

function selected(request: Parameters<typeof selectPassedNames>[0]) {
  const selection = selectPassedNames(request);
  if (selection.kind !== 'selected') throw new Error(`expected a selection, got ${selection.message}`);
  return selection;
}

describe('constructEnvironment builds the child environment from an allowlist, never by filtering (R5.1)', () => {
  it('a name on no list does not reach the child, whatever the operator has set', () => {
    const { variables } = constructEnvironment(selected({ source: OPERATOR, adapterPass: [], operatorPass: [] }), bindings);
    expect(Object.keys(variables).sort()).toEqual(['LANG', 'PATH', 'STATECRAFT_ATTEMPT', 'STATECRAFT_RUN_ID', 'TMPDIR']);
    expect(variables['EDITOR']).toBeUndefined();
    expect(variables['HOME']).toBeUndefined();
  });

  it('the attempt bindings are set by the supervisor (R5.5)', () => {
    const { variables } = constructEnvironment(selected({ source: OPERATOR, adapterPass: [], operatorPass: [] }), {
      ...bindings,
      extra: [{ name: 'STATECRAFT_ATTEMPT_TAG', value: 'tag-1', why: 'sweep' }],
    });
    expect(variables).toMatchObject({ STATECRAFT_RUN_ID: 'r', STATECRAFT_ATTEMPT: '3', TMPDIR: bindings.temporaryDirectory, STATECRAFT_ATTEMPT_TAG: 'tag-1' });
  });

  it('the record names exactly the names the child receives, sorted, with secrets redacted (R5.1)', () => {
    const selection = selected({
      source: OPERATOR,
      adapterPass: [
        { name: 'HOME', secret: false, why: 'credential path' },
        { name: 'PROVIDER_API_KEY', secret: true, why: 'authenticates' },
      ],
      operatorPass: ['EDITOR'],
    });
    const { variables, record } = constructEnvironment(selection, bindings);
    expect(record.names.map((entry) => entry.name)).toEqual(Object.keys(variables).sort());
    expect(record.names.find((entry) => entry.name === 'PROVIDER_API_KEY')?.value).toBe('redacted');
    expect(record.names.find((entry) => entry.name === 'EDITOR')?.value).toBe('redacted');
    expect(record.names.find((entry) => entry.name === 'HOME')?.value).toEqual({ recorded: '/home/operator' });
    expect(JSON.stringify(record)).not.toContain('sk-secret');
    expect(record.state).toBe('applied');
  });

  it("PATH's empty and relative entries are left out of the child's PATH and named on the record; a PATH without them has none named", () => {
    const source = { PATH: ':node_modules/.bin:/usr/bin::./bin:/bin:' };
    const { variables, record } = constructEnvironment(selected({ source, adapterPass: [], operatorPass: [] }), bindings);
    expect(variables['PATH']).toBe('/usr/bin:/bin');
    expect(record.names.find((entry) => entry.name === 'PATH')).toEqual({
      name: 'PATH',
      origin: 'baseline',
      value: { recorded: '/usr/bin:/bin' },
      droppedEntries: ['', 'node_modules/.bin', '', './bin', ''],
    });
    const clean = constructEnvironment(selected({ source: OPERATOR, adapterPass: [], operatorPass: [] }), bindings);
    expect(clean.record.names.find((entry) => entry.name === 'PATH')).not.toHaveProperty('droppedEntries');
  });

  it('a declared name the operator has not set is absent and degrades the environment; LANG and TZ unset are not (R5.4)', () => {
    const selection = selected({ source: { PATH: '/bin' }, adapterPass: [{ name: 'PROVIDER_API_KEY', secret: true, why: 'auth' }], operatorPass: [] });
    const { variables, record } = constructEnvironment(selection, bindings);
    expect(variables['PROVIDER_API_KEY']).toBeUndefined();
    expect(record.state).toBe('degraded');
    expect(record.absent.map((entry) => entry.name)).toEqual(['PROVIDER_API_KEY']);
  });

  it('every attempt carries the four residuals of R5.3, and that the request path names the product home', () => {
    const { record } = constructEnvironment(selected({ source: OPERATOR, adapterPass: [], operatorPass: [] }), bindings);
    expect(record.residuals).toEqual(ENVIRONMENT_RESIDUALS);
    expect(record.residuals.map((residual) => residual.id)).toEqual([
      'absolute-path-bypass',
      'home-readable',
      'stored-credentials-answer',
      'publish-around-supervisor',
      'request-path-reveals-product-home',
    ]);
    // R5.3: no document may claim the child cannot publish.
    for (const residual of record.residuals) expect(residual.statement).not.toMatch(/cannot publish/i);
  });

  it('an attempt under the process-group fallback also carries what that fallback exposes of its supervisor', () => {
    const { record } = constructEnvironment(selected({ source: OPERATOR, adapterPass: [], operatorPass: [] }), { ...bindings, containment: 'process-group' });
    expect(record.residuals.slice(0, ENVIRONMENT_RESIDUALS.length)).toEqual(ENVIRONMENT_RESIDUALS);
    expect(record.residuals.slice(ENVIRONMENT_RESIDUALS.length).map((residual) => residual.id)).toEqual([
      'supervisor-environment-readable',
      'supervisor-signalable',
    ]);
    for (const residual of record.residuals) expect(residual.statement).not.toMatch(/cannot publish/i);
  });
});

describe('a request to place a credential family in the child is refused on construction (R5.2)', () => {
  it.each([
    ['GITHUB_TOKEN', 'github'],
    ['GH_TOKEN', 'github'],
    ['NPM_TOKEN', 'npm'],
    ['AWS_SECRET_ACCESS_KEY', 'aws'],
    ['GOOGLE_APPLICATION_CREDENTIALS', 'google-cloud'],
    ['AZURE_CLIENT_SECRET', 'azure'],
    ['SSH_AUTH_SOCK', 'ssh-agent'],
    ['npm_config__authToken', 'npm'],
  ])('%s from the operator is refused as the %s family', (name, family) => {
    const selection = selectPassedNames({ source: OPERATOR, adapterPass: [], operatorPass: [name] });
    expect(selection.kind).toBe('refused');
    if (selection.kind !== 'refused') return;
    expect(selection.refusals).toEqual([expect.objectContaining({ name, family, origin: 'operator' })]);
    expect(selection.message).toContain(name);
  });

  it("a manifest declaring one is refused too, naming the adapter's manifest", () => {
    const selection = selectPassedNames({ source: OPERATOR, adapterPass: [{ name: 'GH_TOKEN', secret: true, why: 'publishes' }], operatorPass: [] });
    expect(selection.kind).toBe('refused');
    if (selection.kind === 'refused') expect(selection.message).toContain("adapter's manifest");
  });

  it.each(['STATECRAFT_ATTEMPT_TAG', 'STATECRAFT_RUN_ID', 'STATECRAFT_ATTEMPT', 'TMPDIR'])(
    '%s, set by the supervisor, is refused from the operator and from a manifest (R5.5)',
    (name) => {
      for (const request of [
        { source: OPERATOR, adapterPass: [], operatorPass: [name] },
        { source: OPERATOR, adapterPass: [{ name, secret: false, why: 'wants it' }], operatorPass: [] },
      ]) {
        const selection = selectPassedNames(request);
        expect(selection.kind).toBe('refused');
        if (selection.kind !== 'refused') return;
        expect(selection.refusals).toEqual([expect.objectContaining({ name, family: 'supervisor-set' })]);
        expect(selection.message).toContain('the supervisor sets it to bind the child to its attempt');
        expect(selection.message).not.toMatch(/\bR\d/);
      }
    },
  );

  it.each([
    ['TF_TOKEN_app_terraform_io', 'infrastructure'],
    ['HF_TOKEN', 'package-registries'],
    ['GITEA_TOKEN', 'other-forges'],
    ['BITBUCKET_APP_PASSWORD', 'other-forges'],
    ['OP_SERVICE_ACCOUNT_TOKEN', 'secret-stores'],
    ['OP_SESSION_my_team', 'secret-stores'],
    ['BUILDKITE_AGENT_ACCESS_TOKEN', 'ci-runtime'],
    ['HOMEBREW_GITHUB_API_TOKEN', 'github'],
  ])('%s, a credential that can publish or reach a secret store, is of the family %s and refused from the operator (R5.2)', (name, family) => {
    expect(credentialFamilyOf(name)).toBe(family);
    const selection = selectPassedNames({ source: { ...OPERATOR, [name]: 'secret-value' }, adapterPass: [], operatorPass: [name] });
    expect(selection.kind).toBe('refused');
    if (selection.kind === 'refused') expect(selection.refusals).toEqual([expect.objectContaining({ name, family })]);
  });

  it('every family names at least one name or prefix', () => {
    for (const family of CREDENTIAL_FAMILIES) expect(family.names.length + family.prefixes.length).toBeGreaterThan(0);
    expect(credentialFamilyOf('PATH')).toBe('none');
  });
});
