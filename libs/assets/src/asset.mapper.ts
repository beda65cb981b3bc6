import { Injectable } from '@nestjs/common';
import { AttributeDefinition, SystemAttribute } from '@dam/attributes';
import { UrlService, withVersion, xmlMapping } from '@dam/http';
import { formatTimestamp, formatValue, isTranslatable } from './attribute-values';
import { AssetState } from './ports/asset-state';
import { isApproved } from './rules/approval-state';

export interface AssetAttributeRepresentation {
  id: string;
  name: string;
  value: string;
}

/** Spec 2.4, plus `id`, `type`, `archived` and `assetTypeUrl` (DESIGN §6). */
export interface AssetRepresentation {
  url: string;
  id: number;
  type: string;
  accessLevelIds: string;
  submitted: boolean;
  approved: boolean;
  archived: boolean;
  /** Lower-case hex SHA-256 of the current content; null without content (DESIGN §12, "Duplicates"). */
  contentSha256: string | null;
  parents: string[];
  attributes: AssetAttributeRepresentation[];
  contentUrl: string;
  contentUrlUrl: string;
  displayUrl: string;
  thumbnailUrl: string;
  previewUrl: string;
  conversionUrl: string;
  unwatermarkedLargeImageUrl: string;
  /** Videos only: 303 to the web proxy once made (DESIGN §12, "Previews"). */
  previewVideoUrl?: string;
  assetTypeUrl?: string;
}

export interface PendingApprovalRepresentation {
  assetInstanceUrl: string;
  assetApprovalUrl: string;
}

/** XML (DESIGN §3): `<asset>`, `<attributes><attribute>`, `<parents><url>`; read back by `readXmlRepresentation`. */
export const ASSET_XML = xmlMapping('asset', { attributes: 'attribute', parents: 'url' });
export const PENDING_APPROVAL_XML = xmlMapping('pendingApproval');

@Injectable()
export class AssetMapper {
  constructor(private readonly urls: UrlService) {}

  url(id: number): string {
    return this.urls.rest('assets', id);
  }

  /**
   * `languageKey` is the storage key of the language read ('' for the default); translatable values
   * fall back to the default language.
   */
  toRepresentation(
    state: AssetState,
    attributes: readonly AttributeDefinition[],
    languageKey: string,
  ): AssetRepresentation {
    const { asset } = state;
    // The asset's URL once (origin lookup and encoding), the links below it by appending plain segments.
    const url = this.url(asset.id);
    const below = (path: string): string => `${url}/${path}`;
    const representation: AssetRepresentation = {
      url,
      id: asset.id,
      type: asset.type,
      accessLevelIds: state.accessLevelIds.join(','),
      submitted: asset.submitted,
      approved: isApproved(asset, state.hasPendingEdit),
      archived: asset.archived,
      contentSha256: asset.contentSha256,
      parents: state.parentIds.map((id) => this.url(id)),
      attributes: attributes.map((attribute) => ({
        id: String(attribute.id),
        name: attribute.label,
        value: valueOf(state, attribute, languageKey),
      })),
      contentUrl: below('content'),
      contentUrlUrl: below('content/url'),
      displayUrl: below('display'),
      thumbnailUrl: below('thumbnail'),
      previewUrl: below('preview'),
      conversionUrl: below('conversion'),
      unwatermarkedLargeImageUrl: below('unwatermarked-large-image'),
    };
    if (asset.type === 'Video') representation.previewVideoUrl = below('preview-video');
    if (asset.assetTypeId !== null)
      representation.assetTypeUrl = this.urls.rest('asset-types', asset.assetTypeId);
    return asset.version === undefined ? representation : withVersion(representation, asset.version);
  }

  pendingApproval(id: number): PendingApprovalRepresentation {
    return { assetInstanceUrl: this.url(id), assetApprovalUrl: this.urls.rest('assets', id, 'approve') };
  }
}

/** Derived system attributes come from the asset itself; the rest from stored values. */
function valueOf(state: AssetState, attribute: AttributeDefinition, languageKey: string): string {
  switch (attribute.staticName) {
    case SystemAttribute.DateAdded:
      return formatTimestamp(state.asset.createdAt);
    case SystemAttribute.DateLastModified:
      return formatTimestamp(state.asset.updatedAt);
    case SystemAttribute.AddedBy:
      return state.addedByUsername ?? '';
    case SystemAttribute.AccessLevels:
      return state.accessLevelIds.join(',');
    case SystemAttribute.Categories:
      return state.categoryIds.join(',');
  }
  const stored = (language: string): string | undefined =>
    state.values.find((row) => row.attributeId === attribute.id && row.language === language)?.value;
  const value = (isTranslatable(attribute.typeId) ? stored(languageKey) : undefined) ?? stored('');
  return value === undefined ? '' : formatValue(attribute.typeId, value);
}
