import {
  EXTERNAL_STATUSES,
  INTERNAL_STATUSES,
  type OutputLink,
  type OutputType,
} from '../../shared/api/common';
import type { ProjectLegacy, ProjectLegacyListItem } from '../../shared/api/legacy';
import type { DubV1, ProfileV1 } from '../../shared/api/v1';
import type { DubV2, ProfileV2 } from '../../shared/api/v2';
import type { SandboxAccount, SandboxDub } from './state';

/** Builds the signed `{ url, download_url }` pair of one output; fresh on every call. */
export type LinkMaker = (dub: SandboxDub, type: OutputType) => OutputLink;

/** Writes a `created_at` (see `stampOf`). */
export type Stamp = (at: Date) => string;
const iso: Stamp = (at) => at.toISOString();

export function profileV2(a: SandboxAccount): ProfileV2 {
  return {
    id: a.id,
    email: a.email,
    name: a.name,
    username: a.username,
    first_name: a.firstName,
    last_name: a.lastName,
    seconds: a.seconds,
    default_dub_lang: a.defaultDubLang,
    subscription_status: null,
    subscription_plan: null,
    created_at: a.createdAt,
  };
}

export function profileV1(a: SandboxAccount): ProfileV1 {
  return {
    id: a.id,
    email: a.email,
    name: a.name,
    username: a.username,
    firstName: a.firstName,
    lastName: a.lastName,
    seconds: a.seconds,
    defaultDubLang: a.defaultDubLang,
    subscriptionStatus: null,
    subscriptionPlan: null,
    createdAt: a.createdAt,
  };
}

export function dubV2(d: SandboxDub, link: LinkMaker, stamp: Stamp = iso): DubV2 {
  const outputs: Record<string, OutputLink> = {};
  if (d.externalStatusId === 5 && d.artifacts) {
    for (const type of Object.keys(d.artifacts) as OutputType[]) outputs[type] = link(d, type);
  }
  return {
    id: d.id,
    dubbing_id: d.id,
    project_id: d.projectId,
    name: d.name,
    type: d.type,
    source_lang: d.sourceLang,
    dest_lang: d.destLang,
    external_status_id: d.externalStatusId,
    progress_percentage: d.progress,
    external_error_message: d.errorMessage,
    duration: d.duration,
    measured_duration: d.measuredDuration,
    is_studio_quality: d.studio,
    source: 'api',
    created_at: stamp(d.createdAt),
    outputs,
  };
}

export function dubV1(d: SandboxDub, stamp: Stamp = iso): DubV1 {
  return {
    id: d.id,
    name: d.name,
    type: d.type,
    sourceLang: d.sourceLang,
    destLang: d.destLang,
    externalStatusId: d.externalStatusId,
    progressPercentage: d.progress,
    externalErrorMessage: d.errorMessage,
    duration: d.duration,
    measuredDuration: d.measuredDuration,
    isStudioQuality: d.studio,
    source: 'web',
    createdAt: stamp(d.createdAt),
  };
}

export function projectLegacy(d: SandboxDub, source: 'api' | 'web', stamp: Stamp = iso): ProjectLegacy {
  return {
    id: d.id,
    createdAt: stamp(d.createdAt),
    userId: d.ownerId,
    name: d.name,
    type: d.type,
    key: d.key,
    uploadUrl: d.uploadUrl ?? '',
    source_lang: d.sourceLang,
    dest_lang: d.destLang,
    internalStatusId: d.internalStatusId,
    externalStatusId: d.externalStatusId,
    progressPercentage: d.progress,
    duration: Math.round(d.duration),
    // The legacy spec types both as "null or object": a failure carries `{ message }`, never bare text.
    errorMessage: d.externalStatusId === 4 && d.errorMessage ? { message: d.errorMessage } : null,
    externalErrorMessage: d.errorMessage ? { message: d.errorMessage } : null,
    isWatermark: false,
    source,
  };
}

export function projectLegacyListItem(d: SandboxDub, stamp: Stamp = iso): ProjectLegacyListItem {
  const internal = INTERNAL_STATUSES[d.internalStatusId] ?? { name: 'Unknown', alias: 'unknown' };
  const external = EXTERNAL_STATUSES[d.externalStatusId] ?? { name: 'Unknown', alias: 'unknown' };
  return {
    ...projectLegacy(d, 'web', stamp),
    internalStatus: { id: d.internalStatusId, ...internal },
    externalStatus: { id: d.externalStatusId, ...external },
  };
}
