/** Appwrite's error types: type → [HTTP status (or realtime close code), default message]. `%s` is filled in order. */
export const ERROR_TYPES = {
  general_unknown: [
    500,
    'An unknown error has occurred. Please check the logs for more information.',
  ],
  general_mock: [400, 'General errors thrown by the mock controller used for testing.'],
  general_access_forbidden: [401, 'Access to this API is forbidden.'],
  general_resource_blocked: [403, 'Access to this resource is blocked.'],
  general_unknown_origin: [
    403,
    'The request originated from an unknown origin. If you trust this domain, please list it as a trusted platform in the Appwrite console.',
  ],
  general_api_disabled: [
    403,
    'The requested API is disabled. You can enable the API from the Appwrite console.',
  ],
  general_service_disabled: [
    403,
    'The requested service is disabled. You can enable the service from the Appwrite console.',
  ],
  general_unauthorized_scope: [
    401,
    'The current user or API key does not have the required scopes to access the requested resource.',
  ],
  general_rate_limit_exceeded: [
    429,
    'Rate limit for the current endpoint has been exceeded. Please try again after some time.',
  ],
  general_resource_locked: [
    409,
    'The requested resource is currently being modified by another request. Please retry after a brief delay.',
  ],
  general_smtp_disabled: [
    503,
    'SMTP is disabled on your Appwrite instance. You can <a href="/docs/email-delivery">learn more about setting up SMTP</a> in our docs.',
  ],
  general_phone_disabled: [
    503,
    'Phone provider is not configured. Please check the _APP_SMS_PROVIDER environment variable of your Appwrite server.',
  ],
  general_argument_invalid: [
    400,
    'The request contains one or more invalid arguments. Please refer to the endpoint documentation.',
  ],
  general_attribute_query_limit_exceeded: [400, 'Query limit exceeded for the current attribute.'],
  general_column_query_limit_exceeded: [400, 'Query limit exceeded for the current column.'],
  general_query_invalid: [
    400,
    "The query's syntax is invalid. Please check the query and try again.",
  ],
  general_route_not_found: [
    404,
    'Route not found. Please ensure the endpoint is configured correctly and that the API route is valid for this SDK version. Refer to the API docs for more details.',
  ],
  general_cursor_not_found: [
    400,
    'The cursor is invalid. This can happen if the item represented by the cursor has been deleted.',
  ],
  general_server_error: [500, 'An internal server error occurred.'],
  general_protocol_unsupported: [
    426,
    'The request cannot be fulfilled with the current protocol. Please check the value of the _APP_OPTIONS_FORCE_HTTPS environment variable.',
  ],
  general_codes_disabled: [
    500,
    'Invitation codes are disabled on this server. Please contact the server administrator.',
  ],
  general_usage_disabled: [
    501,
    'Usage stats is not configured. Please check the value of the _APP_USAGE_STATS environment variable of your Appwrite server.',
  ],
  general_not_implemented: [
    405,
    'This method was not fully implemented yet. If you believe this is a mistake, please upgrade your Appwrite server version.',
  ],
  general_invalid_email: [400, 'Value must be a valid email address.'],
  general_invalid_phone: [
    400,
    "Value must be a valid phone number. Format this number with a leading '+' and a country code, e.g., +16175551212.",
  ],
  general_region_access_denied: [451, 'Your location is not supported due to legal requirements.'],
  general_bad_request: [
    400,
    'There was an error processing your request. Please check the inputs and try again.',
  ],
  general_feature_unsupported: [
    400,
    'This feature is not supported with your current configuration.',
  ],
  user_count_exceeded: [
    400,
    'The current project has exceeded the maximum number of users. Please check your user limit in the Appwrite console.',
  ],
  user_console_count_exceeded: [
    501,
    'Sign up to the console is restricted. You can contact an administrator to update console sign up restrictions by setting _APP_CONSOLE_WHITELIST_ROOT t',
  ],
  user_jwt_invalid: [
    401,
    'The JWT token is invalid. Please check the value of the X-Appwrite-JWT header to ensure the correct token is being used.',
  ],
  user_already_exists: [
    409,
    'A user with the same id, email, or phone already exists in this project.',
  ],
  user_blocked: [403, 'The current user has been blocked.'],
  user_invalid_token: [401, 'Invalid token passed in the request.'],
  user_password_reset_required: [412, 'The current user requires a password reset.'],
  user_email_not_whitelisted: [
    401,
    'Console registration is restricted to specific emails. Contact your administrator for more information.',
  ],
  user_invalid_code: [
    401,
    'The specified code is not valid. Contact your administrator for more information.',
  ],
  user_ip_not_whitelisted: [
    401,
    'Console registration is restricted to specific IPs. Contact your administrator for more information.',
  ],
  user_invalid_credentials: [401, 'Invalid credentials. Please check the email and password.'],
  user_anonymous_console_prohibited: [
    401,
    'Anonymous users cannot be created for the console project.',
  ],
  user_session_already_exists: [
    401,
    'Creation of a session is prohibited when a session is active.',
  ],
  user_not_found: [404, 'User with the requested ID could not be found.'],
  user_email_not_found: [400, 'User email could not be found.'],
  user_email_already_exists: [
    409,
    'A user with the same email already exists in the current project.',
  ],
  user_email_disposable: [
    400,
    'Disposable email addresses are not allowed. Please use a permanent email address.',
  ],
  user_email_free: [
    400,
    'Free email addresses are not allowed. Please use a business or custom-domain email address.',
  ],
  user_email_not_canonical: [
    400,
    'This email address must already be in its canonical form. Please remove aliases, tags, or provider-specific variations and try again.',
  ],
  user_email_not_corporate: [
    400,
    'Only corporate email addresses are allowed. Please use a work email address and try again.',
  ],
  user_password_mismatch: [
    400,
    'Passwords do not match. Please check the password and confirm password.',
  ],
  password_recently_used: [
    400,
    'The password you are trying to use is similar to your previous password. For your security, please choose a different password and try again.',
  ],
  password_personal_data: [
    400,
    'The password you are trying to use contains references to your name, email, phone or userID. For your security, please choose a different password and',
  ],
  user_session_not_found: [404, 'The current user session could not be found.'],
  user_identity_not_found: [
    404,
    'The identity could not be found. Please sign in with OAuth provider to create identity first.',
  ],
  user_unauthorized: [401, 'The current user is not authorized to perform the requested action.'],
  user_auth_method_unsupported: [
    501,
    'The requested authentication method is either disabled or unsupported. Please check the supported authentication methods in the Appwrite console.',
  ],
  user_phone_already_exists: [
    409,
    'A user with the same phone number already exists in the current project.',
  ],
  user_recovery_codes_already_exists: [
    409,
    'The current user already generated recovery codes and they can only be read once for security reasons.',
  ],
  user_authenticator_not_found: [404, 'Authenticator could not be found on the current user.'],
  user_recovery_codes_not_found: [404, 'Recovery codes could not be found on the current user.'],
  user_authenticator_already_verified: [
    409,
    'This authenticator is already verified on the current user.',
  ],
  user_phone_not_found: [
    400,
    'The current user does not have a phone number associated with their account.',
  ],
  user_missing_id: [400, 'Missing ID from OAuth2 provider.'],
  user_more_factors_required: [401, 'More factors are required to complete the sign in process.'],
  user_challenge_required: [
    401,
    'A recently successful challenge is required to complete this action. A challenge is considered recent for 5 minutes.',
  ],
  user_oauth2_bad_request: [400, 'OAuth2 provider rejected the bad request.'],
  user_oauth2_unauthorized: [401, 'OAuth2 provider rejected the unauthorized request.'],
  user_oauth2_provider_error: [424, 'OAuth2 provider returned some error.'],
  user_oauth2_provider_failure: [424, "%s couldn't complete sign-in (%s). Please try again."],
  user_email_not_verified: [400, 'User email is not verified'],
  user_email_already_verified: [409, 'User email is already verified'],
  user_phone_not_verified: [400, 'User phone is not verified'],
  user_phone_already_verified: [409, 'User phone is already verified'],
  user_deletion_prohibited: [
    400,
    'User deletion is not allowed for users with active memberships. Please delete all confirmed memberships before deleting the account.',
  ],
  user_target_not_found: [404, 'The target could not be found.'],
  user_target_already_exists: [409, 'A target with the same ID already exists.'],
  user_api_key_and_session_set: [
    403,
    'API key and session used in the same request. Use either `setSession` or `setKey`. Learn about which authentication method to use in the SSR docs: htt',
  ],
  user_jwt_and_cookie_set: [
    403,
    'JWT and cookie used in the same request. Use either `setJWT` or `setCookie`. Learn about which authentication method to use in the SSR docs: https://a',
  ],
  user_jwt_creation_denied: [
    403,
    'A JWT cannot be created from a request authorized with a JWT. Authenticate with a session cookie or session header instead.',
  ],
  api_key_expired: [
    401,
    "The ephemeral API key has expired. Please don't use ephemeral API keys for more than duration of the execution.",
  ],
  team_not_found: [404, 'Team with the requested ID could not be found.'],
  team_invite_not_found: [404, 'The requested team invitation could not be found.'],
  team_invalid_secret: [
    401,
    'The team invitation secret is invalid. Please request a new invitation and try again.',
  ],
  team_membership_mismatch: [404, 'The membership ID does not belong to the team ID.'],
  team_invite_mismatch: [401, 'The invite does not belong to the current user.'],
  team_already_exists: [
    409,
    'Team with requested ID already exists. Please choose a different ID and try again.',
  ],
  resource_already_exists: [
    409,
    'Resource with the requested ID already exists. Please choose a different ID and try again.',
  ],
  membership_not_found: [404, 'Membership with the requested ID could not be found.'],
  membership_already_confirmed: [409, 'Membership is already confirmed.'],
  membership_deletion_prohibited: [400, 'Membership deletion is prohibited.'],
  membership_downgrade_prohibited: [400, 'Membership role downgrade is prohibited.'],
  avatar_set_not_found: [404, 'The requested avatar set could not be found.'],
  avatar_not_found: [404, 'The request avatar could not be found.'],
  avatar_image_not_found: [404, 'The requested image was not found at the URL.'],
  avatar_remote_url_failed: [404, 'Failed to fetch favicon from the requested URL.'],
  avatar_icon_not_found: [404, 'The requested favicon could not be found.'],
  avatar_svg_sanitization_failed: [400, 'SVG sanitization failed.'],
  storage_file_already_exists: [409, 'A storage file with the requested ID already exists.'],
  storage_file_not_found: [404, 'The requested file could not be found.'],
  storage_device_not_found: [400, 'The requested storage device could not be found.'],
  storage_file_empty: [400, 'Empty file passed to the endpoint.'],
  storage_file_type_unsupported: [400, 'The given file extension is not supported.'],
  storage_image_resolution_exceeded: [
    400,
    'The image resolution exceeds the maximum allowed for processing.',
  ],
  storage_invalid_file_size: [
    400,
    'The file size is either not valid or exceeds the maximum allowed size. Please check the file or the value of the _APP_STORAGE_LIMIT environment variab',
  ],
  storage_invalid_file: [403, 'The uploaded file is invalid. Please check the file and try again.'],
  storage_bucket_already_exists: [
    409,
    'A storage bucket with the requested ID already exists. Try again with a different ID or use ID.unique() to generate a unique ID.',
  ],
  storage_bucket_not_found: [404, 'Storage bucket with the requested ID could not be found.'],
  storage_invalid_content_range: [
    400,
    'The content range is invalid. Please check the value of the Content-Range header.',
  ],
  storage_invalid_range: [
    416,
    'The requested range is not satisfiable. Please check the value of the Range header.',
  ],
  storage_invalid_appwrite_id: [
    400,
    'The value for x-appwrite-id header is invalid. Please check the value of the x-appwrite-id header is a valid id and not unique().',
  ],
  storage_file_not_public: [403, 'The requested file is not publicly readable.'],
  storage_bucket_transformations_disabled: [
    403,
    'Image transformations are disabled for the requested bucket.',
  ],
  token_not_found: [404, 'The requested file token could not be found.'],
  token_expired: [401, 'The requested file token has expired.'],
  token_resource_type_invalid: [400, 'The resource type for the token is invalid.'],
  installation_not_found: [
    404,
    'Installation with the requested ID could not be found. Check to see if the ID is correct, or create the installation.',
  ],
  provider_repository_not_found: [
    404,
    'VCS (Version Control System) repository with the requested ID could not be found. Check to see if the ID is correct, and if it belongs to installation',
  ],
  repository_not_found: [
    404,
    'Repository with the requested ID could not be found. Check to see if the ID is correct, or create the repository.',
  ],
  provider_contribution_conflict: [409, 'External contribution is already authorized.'],
  general_provider_failure: [
    400,
    'VCS (Version Control System) provider failed to process the request. We believe this is an error with the VCS provider. Try again, or contact support ',
  ],
  function_not_found: [404, 'Function with the requested ID could not be found.'],
  function_runtime_unsupported: [
    404,
    'The requested runtime is either inactive or unsupported. Please check the value of the _APP_FUNCTIONS_RUNTIMES environment variable.',
  ],
  function_already_exists: [
    409,
    'Function with the requested ID already exists. Try again with a different ID or use ID.unique() to generate a unique ID.',
  ],
  function_entrypoint_missing: [
    404,
    'Entrypoint for your Appwrite Function is missing. Please specify it when making deployment or update the entrypoint under your function\'s "Settings" ',
  ],
  function_synchronous_timeout: [
    408,
    "Synchronous function execution timed out. Use asynchronous execution instead, or ensure the execution duration doesn't exceed 30 seconds.",
  ],
  function_asynchronous_timeout: [
    408,
    "Asynchronous function execution timed out. Ensure the execution duration doesn't exceed the configured function timeout.",
  ],
  function_template_not_found: [404, 'Function Template with the requested ID could not be found.'],
  function_runtime_not_detected: [400, 'Function runtime could not be detected.'],
  function_execute_permission_missing: [
    401,
    'To execute function using domain, execute permissions must include "any" or "guests".',
  ],
  site_not_found: [404, 'Site with the requested ID could not be found.'],
  site_already_exists: [
    409,
    'Site with the requested ID already exists. Try again with a different ID or use ID.unique() to generate a unique ID.',
  ],
  site_template_not_found: [404, 'Site Template with the requested ID could not be found.'],
  build_not_found: [404, 'Build with the requested ID could not be found.'],
  build_not_ready: [400, 'Build with the requested ID is building and not ready for execution.'],
  build_in_progress: [
    400,
    'Build with the requested ID is already in progress. Please wait before you can retry.',
  ],
  build_already_completed: [
    400,
    'Build with the requested ID is already completed and cannot be canceled.',
  ],
  build_canceled: [400, 'Build with the requested ID has been canceled.'],
  build_failed: [
    400,
    'Build with the requested ID failed. Please check the logs for more information.',
  ],
  build_timeout: [
    408,
    'Build timed out. Increase the build timeout via the `_APP_COMPUTE_BUILD_TIMEOUT` environment variable, or simplify the build to complete within the li',
  ],
  deployment_not_found: [404, 'Deployment with the requested ID could not be found.'],
  deployment_invalid_file_size: [
    400,
    'The deployment file size is either not valid or exceeds the maximum allowed size. Please check the file or the value of the _APP_COMPUTE_SIZE_LIMIT en',
  ],
  execution_not_found: [404, 'Execution with the requested ID could not be found.'],
  execution_in_progress: [
    400,
    "Can't delete ongoing execution. Please wait for execution to finish before deleting it.",
  ],
  log_not_found: [404, 'Log with the requested ID could not be found.'],
  presence_not_found: [404, 'Presence with the requested ID could not be found.'],
  presence_already_exists: [
    409,
    "Presence with the requested ID '%s' already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  database_not_found: [404, "Database with the requested ID '%s' could not be found."],
  database_already_exists: [
    409,
    "Database with the requested ID '%s' already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  database_timeout: [408, 'Database timed out. Try adjusting your queries or adding an index.'],
  database_query_order_null: [
    400,
    'The order attribute/column had a null value. Cursor pagination requires all documents/rows order attribute/column values are non-null.',
  ],
  collection_not_found: [404, "Collection with the requested ID '%s' could not be found."],
  collection_already_exists: [
    409,
    "A collection with the requested ID '%s' already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  collection_limit_exceeded: [
    400,
    "The maximum number of collections for database '%s' has been reached.",
  ],
  table_not_found: [404, "Table with the requested ID '%s' could not be found."],
  table_already_exists: [
    409,
    "A table with the requested ID '%s' already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  table_limit_exceeded: [400, "The maximum number of tables for database '%s' has been reached."],
  document_not_found: [404, "Document with the requested ID '%s' could not be found."],
  document_invalid_structure: [
    400,
    'The document structure is invalid. Please ensure the attributes match the collection definition.',
  ],
  document_missing_data: [
    400,
    'The document data is missing. Try again with document data populated',
  ],
  document_missing_payload: [
    400,
    'The document data and permissions are missing. You must provide either document data or permissions to be updated.',
  ],
  document_already_exists: [
    409,
    "Document with the requested ID '%s' already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  document_unique_constraint_violation: [
    409,
    'Document violates a unique attribute constraint. Try again with different value(s).',
  ],
  document_update_conflict: [409, 'Remote document is newer than local.'],
  document_delete_restricted: [
    403,
    'Document cannot be deleted because it is referenced by another document.',
  ],
  row_not_found: [404, "Row with the requested ID '%s' could not be found."],
  row_invalid_structure: [
    400,
    'The row structure is invalid. Please ensure the columns match the table definition.',
  ],
  row_missing_data: [400, 'The row data is missing. Try again with row data populated.'],
  row_missing_payload: [
    400,
    'The row data and permissions are missing. You must provide either row data or permissions to be updated.',
  ],
  row_already_exists: [
    409,
    "Row with the requested ID '%s' already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  row_unique_constraint_violation: [
    409,
    'Row violates a unique column constraint. Try again with different value(s).',
  ],
  row_update_conflict: [409, 'Remote row is newer than local.'],
  row_delete_restricted: [403, 'Row cannot be deleted because it is referenced by another row.'],
  attribute_not_found: [404, "Attribute with the requested key '%s' could not be found."],
  attribute_unknown: [
    400,
    "The attribute '%s' required for the index could not be found. Please confirm all your attributes are in the available state.",
  ],
  attribute_not_available: [
    400,
    "The requested attribute '%s' is not yet available. Please try again later.",
  ],
  attribute_format_unsupported: [400, 'The requested attribute format is not supported.'],
  attribute_default_unsupported: [
    400,
    'Default values cannot be set for array or required attributes.',
  ],
  attribute_already_exists: [
    409,
    "Attribute with the requested key '%s' already exists. Attribute keys must be unique, try again with a different key.",
  ],
  attribute_limit_exceeded: [
    400,
    "The maximum number or size of attributes for collection '%s' has been reached.",
  ],
  attribute_value_invalid: [
    400,
    'The attribute value is invalid. Please check the type, range and value of the attribute.',
  ],
  attribute_type_invalid: [400, "The attribute '%s' type is invalid."],
  attribute_invalid_resize: [
    400,
    'Existing data is too large for new size, truncate your existing data then try again.',
  ],
  ATTRIBUTE_TYPE_NOT_SUPPORTED: [400, "Attribute type '%s' is not supported."],
  relationship_value_invalid: [400, 'The relationship value is invalid.'],
  column_not_found: [404, "Column with the requested key '%s' could not be found."],
  column_unknown: [
    400,
    "The column '%s' required for the index could not be found. Please confirm all your columns are in the available state.",
  ],
  column_not_available: [
    400,
    "The requested column '%s' is not yet available. Please try again later.",
  ],
  column_format_unsupported: [400, 'The requested column format is not supported.'],
  column_default_unsupported: [400, 'Default values cannot be set for array or required columns.'],
  column_already_exists: [
    409,
    "Column with the requested key '%s' already exists. Column keys must be unique, try again with a different key.",
  ],
  column_limit_exceeded: [
    400,
    "The maximum number or size of columns for table '%s' has been reached.",
  ],
  column_value_invalid: [
    400,
    'The column value is invalid. Please check the type, range and value of the column.',
  ],
  column_type_invalid: [400, "The column '%s' type is invalid."],
  column_invalid_resize: [400, ''],
  COLUMN_TYPE_NOT_SUPPORTED: [400, "Column type '%s' is not supported."],
  index_not_found: [404, "Index with the requested key '%s' could not be found."],
  index_limit_exceeded: [
    400,
    "The maximum number of indexes for collection '%s' has been reached.",
  ],
  index_already_exists: [
    409,
    "Index with the requested key '%s' already exists. Try again with a different key.",
  ],
  index_invalid: [400, 'Index invalid.'],
  index_dependency: [
    409,
    "Attribute '%s' cannot be renamed or deleted. Please remove the associated index first.",
  ],
  column_index_not_found: [404, "Index with the requested key '%s' could not be found."],
  column_index_limit_exceeded: [
    400,
    "The maximum number of indexes for table '%s' has been reached.",
  ],
  column_index_already_exists: [
    409,
    "Index with the requested key '%s' already exists. Try again with a different key.",
  ],
  column_index_invalid: [400, 'Index invalid.'],
  column_index_dependency: [
    409,
    "Column '%s' cannot be renamed or deleted. Please remove the associated index first.",
  ],
  transaction_not_found: [404, "Transaction with the requested ID '%s' could not be found."],
  transaction_already_exists: [
    409,
    "Transaction with the requested ID '%s' already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  transaction_invalid: [
    400,
    'The transaction is invalid. Please check the transaction state and try again.',
  ],
  transaction_failed: [
    400,
    'The transaction has errored. Please check the transaction data and try again.',
  ],
  transaction_expired: [
    410,
    'The transaction has expired. Please create a new transaction and try again.',
  ],
  transaction_conflict: [
    409,
    'The transaction has a conflict. Please resolve the conflict and try again.',
  ],
  transaction_limit_exceeded: [
    400,
    'The maximum number of operations per transaction has been exceeded.',
  ],
  transaction_not_ready: [400, 'The transaction is not ready yet. Please try again later.'],
  project_not_found: [
    404,
    'Project with the requested ID could not be found. Please check the value of the X-Appwrite-Project header to ensure the correct project ID is being used.',
  ],
  project_already_exists: [
    409,
    'Project with the requested ID already exists. Try again with a different ID or use ID.unique() to generate a unique ID.',
  ],
  project_provider_disabled: [
    412,
    'The chosen OAuth provider is disabled. You can enable the OAuth provider using the Appwrite console.',
  ],
  project_provider_unsupported: [
    400,
    'The chosen OAuth provider is unsupported. Please check the <a href="/docs/client/account?sdk=web-default#accountCreateOAuth2Session">Create OAuth2 Ses',
  ],
  project_invalid_success_url: [400, 'Invalid redirect URL for OAuth success.'],
  project_invalid_failure_url: [400, 'Invalid redirect URL for OAuth failure.'],
  project_reserved_project: [400, 'The project ID is reserved. Please choose another project ID.'],
  project_key_expired: [
    401,
    'The project key has expired. Please generate a new key using the Appwrite console.',
  ],
  account_key_expired: [
    401,
    'The account API key has expired. Please generate a new key using the Appwrite console.',
  ],
  router_host_not_found: [
    404,
    'Host is not trusted. This could occur because you have not configured a custom domain. Add a custom domain to your project first and try again.',
  ],
  router_domain_not_configured: [
    500,
    '_APP_DOMAIN, _APP_DOMAIN_TARGET, and _APP_DOMAIN_FUNCTIONS environment variables have not been configured. Please configure the domain environment var',
  ],
  rule_resource_not_found: [
    404,
    'Resource could not be found. Please check if the resourceId and resourceType are correct, or if the resource actually exists.',
  ],
  rule_not_found: [
    404,
    'Rule with the requested ID could not be found. Please check if the ID provided is correct or if the rule actually exists.',
  ],
  rule_already_exists: [409, 'Domain is already used. Please try again with a different domain.'],
  rule_verification_failed: [
    400,
    'Domain verification failed. Please check if your DNS records are correct and try again.',
  ],
  project_smtp_config_invalid: [
    400,
    'Provided SMTP config is invalid. Please check the configured values and try again.',
  ],
  project_template_default_deletion: [
    401,
    "You can't delete default template. If you are trying to reset your template changes, you can ignore this error as it's already been reset.",
  ],
  project_region_unsupported: [
    400,
    'The requested region is either inactive or unsupported. Please check the value of the _APP_REGIONS environment variable.',
  ],
  webhook_not_found: [404, 'Webhook with the requested ID could not be found.'],
  webhook_already_exists: [
    409,
    'Webhook with the same ID already exists. Try again with a different ID.',
  ],
  key_not_found: [404, 'Key with the requested ID could not be found.'],
  key_already_exists: [409, 'Key with the same ID already exists. Try again with a different ID.'],
  key_creation_denied: [
    403,
    'An API key cannot be created from a request authorized with an API key. Authenticate with a session instead. To create a short-lived key from a server',
  ],
  dev_key_gone: [410, 'Dev key creation is no longer available.'],
  platform_not_found: [404, 'Platform with the requested ID could not be found.'],
  platform_method_unsupported: [
    400,
    'The requested platform has invalid type. Please use corresponding update method for the platform type.',
  ],
  platform_already_exists: [
    409,
    'Platform with the same ID already exists in this project. Try again with a different ID.',
  ],
  variable_not_found: [404, 'Variable with the requested ID could not be found.'],
  variable_already_exists: [
    409,
    'Variable with the same ID already exists in this project. Try again with a different ID.',
  ],
  variable_cannot_unset_secret: [
    400,
    'Secret variables cannot be marked as non-secret. Please re-create the variable if this is your intention.',
  ],
  graphql_no_query: [400, 'Param "query" is not optional.'],
  graphql_too_many_queries: [400, 'Too many queries.'],
  graphql_method_unsupported: [405, 'GET requests only support GraphQL query operations.'],
  migration_not_found: [
    404,
    'Migration with the requested ID could not be found. Please verify that the provided ID is correct and try again.',
  ],
  migration_already_exists: [
    409,
    'Migration with the requested ID already exists. Try again with a different ID.',
  ],
  migration_in_progress: [
    409,
    'Migration is already in progress. You can check the status of the migration in your Appwrite Console\'s "Settings" > "Migrations".',
  ],
  migration_database_type_unsupported: [
    400,
    'The specified database type is not supported for CSV import or export operations.',
  ],
  migration_source_project_id_required: [
    400,
    'A source projectId is required for Appwrite migrations. Provide it in the migration credentials.',
  ],
  migration_source_project_not_found: [
    404,
    'The source project for the provided projectId was not found. Verify the projectId and the API key has access to it.',
  ],
  migration_source_type_invalid: [
    400,
    'The migration source type is invalid. Use one of the supported source types.',
  ],
  migration_destination_type_invalid: [
    400,
    'The migration destination type is invalid. Use one of the supported destination types.',
  ],
  realtime_message_format_invalid: [1003, 'Message format is not valid.'],
  realtime_policy_violation: [1008, 'Policy violation.'],
  realtime_too_many_messages: [1013, 'Too many messages.'],
  migration_provider_error: [
    400,
    "An error occurred on the provider's side. Please try again later.",
  ],
  health_queue_size_exceeded: [503, 'Queue size threshold hit.'],
  health_certificate_expired: [
    404,
    'The SSL certificate for the specified domain has expired and is no longer valid.',
  ],
  health_invalid_host: [
    404,
    'Failed to establish a connection to the specified domain. Please verify the domain name and ensure that the server is running and accessible.',
  ],
  provider_not_found: [404, 'Provider with the requested ID could not be found.'],
  provider_already_exists: [409, 'Provider with the requested ID already exists.'],
  provider_incorrect_type: [400, 'Provider with the requested ID is of the incorrect type.'],
  provider_missing_credentials: [400, 'Provider with the requested ID is missing credentials.'],
  topic_not_found: [404, 'Topic with the request ID could not be found.'],
  topic_already_exists: [409, 'Topic with the request ID already exists.'],
  subscriber_not_found: [404, 'Subscriber with the request ID could not be found.'],
  subscriber_already_exists: [409, 'Subscriber with the request ID already exists.'],
  message_not_found: [404, 'Message with the requested ID could not be found.'],
  message_already_exists: [
    409,
    'Message with the requested ID already exists. Try again with a different ID or use ID.unique() to generate a unique ID.',
  ],
  message_missing_target: [
    400,
    'Message with the requested ID has no recipients (topics or users or targets).',
  ],
  message_already_sent: [400, 'Message with the requested ID has already been sent.'],
  message_already_processing: [400, 'Message with the requested ID is already being processed.'],
  message_already_failed: [400, 'Message with the requested ID has already failed.'],
  message_already_scheduled: [
    400,
    'Message with the requested ID has already been scheduled for delivery.',
  ],
  message_target_not_email: [400, 'Message with the target ID is not an email target.'],
  message_target_not_sms: [400, 'Message with the target ID is not an SMS target.'],
  message_target_not_push: [400, 'Message with the target ID is not a push target.'],
  message_missing_schedule: [400, 'Message can not have status '],
  schedule_not_found: [404, 'Schedule with the requested ID could not be found.'],
  target_provider_invalid_type: [400, 'Target has an invalid provider type.'],
  user_id_missing: [
    403,
    'When using account API key, make sure to pass x-appwrite-user header with your user ID.',
  ],
  organization_id_missing: [
    403,
    'When using organization API key, make sure to pass x-appwrite-organization header with your organization ID.',
  ],
  project_id_missing: [
    403,
    'When using project API key, make sure to pass x-appwrite-project header with your project ID.',
  ],
  mock_number_already_exists: [
    409,
    'Mock number with the requested number already exists. Try again with a different number. or update OTP of existing mock number.',
  ],
  mock_number_not_found: [404, 'Mock number with the requested number could not be found.'],
  mock_number_limit_exceeded: [
    400,
    'The maximum number of mock phones for this project has been reached.',
  ],
  insight_not_found: [404, 'Insight with the requested ID could not be found.'],
  insight_already_exists: [
    409,
    'Insight with the requested ID already exists. Try again with a different ID or use ID.unique() to generate a unique ID.',
  ],
  report_not_found: [404, 'Report with the requested ID could not be found.'],
  report_already_exists: [
    409,
    'Report with the requested ID already exists. Try again with a different ID or use ID.unique() to generate a unique ID.',
  ],
} as const satisfies Record<string, readonly [number, string]>;

/** One of Appwrite's error `type` strings. */
export type ErrorType = keyof typeof ERROR_TYPES;
