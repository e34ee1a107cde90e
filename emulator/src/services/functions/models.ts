import type {
  DeploymentRecord,
  ExecutionRecord,
  FunctionRecord,
  VariableRecord,
} from './records.ts';

/** Appwrite's Variable model; a secret's value is never returned. */
export function variableModel(variable: VariableRecord): Record<string, unknown> {
  return {
    $id: variable.id,
    $createdAt: variable.createdAt,
    $updatedAt: variable.updatedAt,
    key: variable.key,
    value: variable.secret ? '' : variable.value,
    secret: variable.secret,
    resourceType: 'function',
    resourceId: variable.functionId,
  };
}

/** Appwrite's Function model (format 1.9.x), with its variables. */
export function functionModel(
  fn: FunctionRecord,
  variables: readonly VariableRecord[],
): Record<string, unknown> {
  return {
    $id: fn.id,
    $createdAt: fn.createdAt,
    $updatedAt: fn.updatedAt,
    execute: fn.execute,
    name: fn.name,
    enabled: fn.enabled,
    live: true,
    logging: fn.logging,
    runtime: fn.runtime,
    deploymentRetention: fn.deploymentRetention,
    deploymentId: fn.deploymentId,
    deploymentCreatedAt: fn.deploymentCreatedAt,
    latestDeploymentId: fn.latestDeploymentId,
    latestDeploymentCreatedAt: fn.latestDeploymentCreatedAt,
    latestDeploymentStatus: fn.latestDeploymentStatus,
    scopes: fn.scopes,
    vars: variables.map(variableModel),
    events: fn.events,
    schedule: fn.schedule,
    timeout: fn.timeout,
    entrypoint: fn.entrypoint,
    commands: fn.commands,
    version: 'v5',
    installationId: '',
    providerRepositoryId: '',
    providerBranch: '',
    providerRootDirectory: '',
    providerSilentMode: false,
    providerBranches: [],
    providerPaths: [],
    buildSpecification: fn.buildSpecification,
    runtimeSpecification: fn.runtimeSpecification,
  };
}

/** Appwrite's Deployment model. */
export function deploymentModel(deployment: DeploymentRecord): Record<string, unknown> {
  return {
    $id: deployment.id,
    $createdAt: deployment.createdAt,
    $updatedAt: deployment.updatedAt,
    type: deployment.type,
    resourceId: deployment.functionId,
    resourceType: 'functions',
    entrypoint: deployment.entrypoint,
    sourceSize: deployment.sourceSize,
    buildSize: deployment.buildSize,
    totalSize: deployment.sourceSize + deployment.buildSize,
    buildId: deployment.id,
    activate: deployment.activate,
    screenshotLight: '',
    screenshotDark: '',
    status: deployment.status,
    buildLogs: deployment.buildLogs,
    buildDuration: deployment.buildDuration,
    providerRepositoryName: '',
    providerRepositoryOwner: '',
    providerRepositoryUrl: '',
    providerCommitHash: '',
    providerCommitAuthorUrl: '',
    providerCommitAuthor: '',
    providerCommitMessage: '',
    providerCommitUrl: '',
    providerBranch: '',
    providerBranchUrl: '',
  };
}

/** Whether a response format (`1.9.5`, `2.3.0`) is older than 2.0.0. */
export function isPre2Format(format: string): boolean {
  const major = Number(format.split('.')[0]);
  return !Number.isFinite(major) || major < 2;
}

/**
 * Appwrite's Execution model: format < 2.0.0 (node-appwrite 27, appwrite 26) names the function
 * `functionId`; 2.x names it `resourceId` + `resourceType`.
 */
export function executionModel(
  execution: ExecutionRecord,
  format = '1.9.5',
): Record<string, unknown> {
  const owner = isPre2Format(format)
    ? { functionId: execution.functionId }
    : { resourceId: execution.functionId, resourceType: 'functions' };
  const model: Record<string, unknown> = {
    $id: execution.id,
    $createdAt: execution.createdAt,
    $updatedAt: execution.updatedAt,
    $permissions: execution.permissions,
    ...owner,
    deploymentId: execution.deploymentId,
    trigger: execution.trigger,
    status: execution.status,
    requestMethod: execution.requestMethod,
    requestPath: execution.requestPath,
    requestHeaders: execution.requestHeaders,
    responseStatusCode: execution.responseStatusCode,
    responseBody: execution.responseBody,
    responseHeaders: execution.responseHeaders,
    logs: execution.logs,
    errors: execution.errors,
    duration: execution.duration,
  };
  if (execution.scheduledAt) model.scheduledAt = execution.scheduledAt;
  return model;
}
