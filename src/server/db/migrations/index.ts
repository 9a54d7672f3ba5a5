import type { Migration } from 'kysely/migration';
import * as foundation from './2026_11_22_00_foundation.ts';
import * as projectResources from './2026_11_22_01_project_resources.ts';
import * as tasks from './2026_11_22_02_tasks.ts';
import * as resourcesBTemplateFields from './2026_11_22_resources_b_template_fields.ts';
import * as engineWorkers from './2026_11_22_engine_workers.ts';
import * as console2TaskListIndex from './2026_11_22_console2_task_list_index.ts';
import * as tfalertsStateBackend from './2026_11_23_tfalerts_state_backend.ts';
import * as relTaskProcessGroup from './2026_11_23_rel_task_process_group.ts';
import * as compatTaskSummary from './2026_11_23_compat_task_summary.ts';
import * as authSignIn from './2026_11_23_auth_sign_in.ts';
import * as authUserCanCreateProject from './2026_11_23_auth_user_can_create_project.ts';
import * as runners from './2026_11_23_runners.ts';
import * as scaleTaskSecret from './2026_11_23_scale_task_secret.ts';
import * as searchOutputLine from './2026_11_23_search_output_line.ts';
import * as searchOutputTextBlocks from './2026_11_23_search_output_text_blocks.ts';
import * as integrationDeliveryIndex from './2026_11_26_integration_delivery_index.ts';
import * as secAuthExternalIdentity from './2026_11_26_sec_auth_external_identity.ts';
import * as secTaskTrustedValues from './2026_11_26_sec_task_trusted_values.ts';
import * as p30HostConfigs from './2026_11_26_p30_host_configs.ts';
import * as tokensSecretStorages from './2026_11_26_tokens_secret_storages.ts';
import * as templateEnvironments from './2026_11_26_template_environments.ts';
import * as scheduleTimezone from './2026_11_26_x_schedule_timezone.ts';
import * as templateDisabled from './2026_11_26_x_template_disabled.ts';
import * as taskFilterIndexes from './2026_11_26_x_task_filter_indexes.ts';
import * as p30RunnerDefault from './2026_11_26_zz_p30_runner_default.ts';
import * as p30ProjectInvite from './2026_11_26_zz_p30_project_invite.ts';
import * as p30TemplateSshKeys from './2026_11_26_zz_p30_template_ssh_keys.ts';
import * as p32Audit from './2026_11_26_p32_audit.ts';
import * as p31Workflows from './2026_11_26_p31_workflows.ts';
import * as eventAuditLink from './2026_11_26_r_event_audit_link.ts';
import * as qbBoardToken from './2026_11_26_qb_board_token.ts';
import * as qnAlertChannels from './2026_11_26_qn_alert_channels_event_webhooks.ts';
import * as sAuditInbox from './2026_11_26_s_audit_inbox.ts';
import * as templateBoardState from './2026_11_26_t_template_board_state.ts';
import * as auditInboxEvents from './2026_11_27_a_audit_inbox_events.ts';
import * as launchWaitReasons from './2026_11_27_b_launch_wait_reasons.ts';
import * as executorSettings from './2026_11_28_executor_settings.ts';
import * as mcpTokenWriteFlag from './2026_11_29_mcp_token_write_flag.ts';
import * as templateConcurrency from './2026_11_29_template_concurrency.ts';
import * as projectLocks from './2026_11_29_project_locks.ts';
import * as projectRoles from './2026_11_29_project_roles.ts';
import * as templateGrants from './2026_11_29_template_grants.ts';
import * as triggerOwners from './2026_11_29_trigger_owners.ts';
import * as serverRoles from './2026_11_29_server_roles.ts';
import * as viewGrants from './2026_11_29_view_grants.ts';
import * as templateRateLimit from './2026_11_29_template_rate_limit.ts';
import * as templateAlertFixed from './2026_11_29_template_alert_fixed.ts';
import * as secAuthInviteProof from './2026_11_29_sec_auth_invite_proof.ts';
import * as taskPriority from './2026_11_29_task_priority.ts';
import * as integrationOnceWithin from './2026_11_29_integration_once_within.ts';
import * as keySourceType from './2026_11_29_key_source_type.ts';
import * as templateAllowedInventories from './2026_11_29_template_allowed_inventories.ts';
import * as inventorySources from './2026_11_29_inventory_sources.ts';
import * as hostRecapIndexes from './2026_11_29_host_recap_indexes.ts';
import * as hostFacts from './2026_11_29_host_facts.ts';
import * as inventorySyncSchedule from './2026_11_29_inventory_sync_schedule.ts';

/** Every migration, by name; Kysely runs them in name order. Add new files here. */
export const migrations: Record<string, Migration> = {
  '2026_11_22_00_foundation': foundation,
  '2026_11_22_01_project_resources': projectResources,
  '2026_11_22_02_tasks': tasks,
  '2026_11_22_resources_b_template_fields': resourcesBTemplateFields,
  '2026_11_22_engine_workers': engineWorkers,
  '2026_11_22_console2_task_list_index': console2TaskListIndex,
  '2026_11_23_tfalerts_state_backend': tfalertsStateBackend,
  '2026_11_23_rel_task_process_group': relTaskProcessGroup,
  '2026_11_23_compat_task_summary': compatTaskSummary,
  '2026_11_23_auth_sign_in': authSignIn,
  '2026_11_23_auth_user_can_create_project': authUserCanCreateProject,
  '2026_11_23_runners': runners,
  '2026_11_23_scale_task_secret': scaleTaskSecret,
  '2026_11_23_search_output_line': searchOutputLine,
  '2026_11_23_search_output_text_blocks': searchOutputTextBlocks,
  '2026_11_26_integration_delivery_index': integrationDeliveryIndex,
  '2026_11_26_sec_auth_external_identity': secAuthExternalIdentity,
  '2026_11_26_sec_task_trusted_values': secTaskTrustedValues,
  '2026_11_26_p30_host_configs': p30HostConfigs,
  '2026_11_26_template_environments': templateEnvironments,
  '2026_11_26_x_schedule_timezone': scheduleTimezone,
  '2026_11_26_x_template_disabled': templateDisabled,
  '2026_11_26_x_task_filter_indexes': taskFilterIndexes,
  '2026_11_26_zz_p30_runner_default': p30RunnerDefault,
  '2026_11_26_zz_p30_project_invite': p30ProjectInvite,
  '2026_11_26_zz_p30_template_ssh_keys': p30TemplateSshKeys,
  '2026_11_26_tokens_secret_storages': tokensSecretStorages,
  '2026_11_26_p32_audit': p32Audit,
  '2026_11_26_p31_workflows': p31Workflows,
  '2026_11_26_r_event_audit_link': eventAuditLink,
  '2026_11_26_qb_board_token': qbBoardToken,
  '2026_11_26_qn_alert_channels_event_webhooks': qnAlertChannels,
  '2026_11_26_s_audit_inbox': sAuditInbox,
  '2026_11_26_t_template_board_state': templateBoardState,
  '2026_11_27_a_audit_inbox_events': auditInboxEvents,
  '2026_11_27_b_launch_wait_reasons': launchWaitReasons,
  '2026_11_28_executor_settings': executorSettings,
  '2026_11_29_mcp_token_write_flag': mcpTokenWriteFlag,
  '2026_11_29_template_concurrency': templateConcurrency,
  '2026_11_29_project_locks': projectLocks,
  '2026_11_29_template_rate_limit': templateRateLimit,
  '2026_11_29_sec_auth_invite_proof': secAuthInviteProof,
  '2026_11_29_template_alert_fixed': templateAlertFixed,
  '2026_11_29_task_priority': taskPriority,
  '2026_11_29_integration_once_within': integrationOnceWithin,
  '2026_11_29_key_source_type': keySourceType,
  '2026_11_29_template_allowed_inventories': templateAllowedInventories,
  '2026_11_29_inventory_sources': inventorySources,
  '2026_11_29_host_recap_indexes': hostRecapIndexes,
  '2026_11_29_project_roles': projectRoles,
  '2026_11_29_template_grants': templateGrants,
  '2026_11_29_host_facts': hostFacts,
  '2026_11_29_inventory_sync_schedule': inventorySyncSchedule,
  '2026_11_29_trigger_owners': triggerOwners,
  '2026_11_29_zz_server_roles': serverRoles,
  '2026_11_29_zz_view_grants': viewGrants,
};
