import { Injectable } from '@nestjs/common';
import { ActorUser, requireAdmin } from '@dam/access';
import { idsOf, wouldCreateCycle } from '@dam/core';
import { InvalidInput, UnknownResource } from '@dam/errors';
import { parseOptionalId, UrlService } from '@dam/http';
import { requiredText } from '../rules';
import { AttributeType } from '../attribute-types';
import { AttributesRepository } from '../attributes/attributes.repository';
import { AttributeEntity } from '../entities/attribute.entity';
import { KeywordEntity } from '../entities/keyword.entity';
import { KeywordDto } from './dto/keyword.dto';
import { buildKeywordForest, KeywordNode } from './keyword-tree';
import { KeywordsRepository } from './keywords.repository';
import { AttributeNotFound, DuplicateKeyword } from '../attribute-errors';

const WHAT = 'keywords';
const MAX_SYNONYMS = 100;

/** Rules for the keyword trees of keywords-type attributes: anyone signed in reads, admins change them. */
@Injectable()
export class KeywordsService {
  constructor(
    private readonly keywords: KeywordsRepository,
    private readonly attributes: AttributesRepository,
    private readonly urls: UrlService,
  ) {}

  async treeOfAttribute(attributeId: number): Promise<KeywordNode[]> {
    const attribute = await this.attributes.findById(attributeId);
    if (attribute === null) throw new AttributeNotFound(attributeId);
    requireKeywordsType(attribute);
    return buildKeywordForest(await this.keywords.findWithSynonyms(attributeId)).roots;
  }

  /**
   * The ids of every keyword, or with `attributeId` of one attribute: each tree depth first, a parent
   * before its children, siblings by name.
   */
  async listIds(rawAttributeId: unknown): Promise<number[]> {
    const { roots } = buildKeywordForest(
      await this.keywords.findWithSynonyms(parseOptionalId(rawAttributeId, 'attributeId')),
    );
    return idsOf(roots);
  }

  async get(id: number): Promise<KeywordNode> {
    const keyword = await this.getEntityOrThrow(id);
    return this.nodeOf(keyword);
  }

  async create(actor: ActorUser, request: KeywordDto): Promise<KeywordNode> {
    requireAdmin(actor, `manage ${WHAT}`);
    if (request.attributeUrl === undefined || request.attributeUrl === null) {
      throw new InvalidInput('you must supply the attributeUrl of the keywords attribute');
    }
    const attribute = await this.attributeOfUrl(request.attributeUrl);
    const name = validName(request.name);
    const parentId = await this.parentIdOf(request.parent ?? null, attribute.id);
    const synonyms = validSynonyms(request.synonyms) ?? [];
    const now = new Date();
    const keyword = Object.assign(new KeywordEntity(), {
      attributeId: attribute.id,
      name,
      parentId,
      parentKey: parentId ?? 0,
      createdAt: now,
      updatedAt: now,
    });
    await this.refuseDuplicate(keyword);
    return this.nodeOf(await this.keywords.save(keyword, synonyms));
  }

  async update(actor: ActorUser, id: number, changes: KeywordDto): Promise<KeywordNode> {
    requireAdmin(actor, `manage ${WHAT}`);
    const keyword = await this.getEntityOrThrow(id);
    if (changes.attributeUrl !== undefined && changes.attributeUrl !== null) {
      const attributeId = this.urls.parseIdOrThrow(
        changes.attributeUrl,
        'attributes',
        'an attribute',
        'attributeUrl',
      );
      if (attributeId !== keyword.attributeId)
        throw new InvalidInput('a keyword cannot move to another attribute');
    }
    if (changes.name !== undefined) keyword.name = validName(changes.name);
    if (changes.parent !== undefined) {
      const parentId = await this.parentIdOf(changes.parent, keyword.attributeId);
      const { keywords } = await this.keywords.findWithSynonyms(keyword.attributeId);
      if (wouldCreateCycle(keywords, keyword.id, parentId)) {
        throw new InvalidInput('a keyword cannot be placed below itself or one of its descendants');
      }
      keyword.parentId = parentId;
      keyword.parentKey = parentId ?? 0;
    }
    await this.refuseDuplicate(keyword);
    keyword.updatedAt = new Date();
    return this.nodeOf(await this.keywords.save(keyword, validSynonyms(changes.synonyms)));
  }

  async delete(actor: ActorUser, id: number): Promise<void> {
    requireAdmin(actor, `manage ${WHAT}`);
    const keyword = await this.getEntityOrThrow(id);
    if (await this.keywords.hasChildren(id)) {
      throw new InvalidInput(`the keyword ${keyword.name} has child keywords: delete or move them first`);
    }
    await this.keywords.delete(id);
  }

  private async getEntityOrThrow(id: number): Promise<KeywordEntity> {
    const keyword = await this.keywords.findById(id);
    if (keyword === null) throw new UnknownResource(`keyword ${id} does not exist`);
    return keyword;
  }

  /** The keyword with its synonyms and descendants (its attribute's tree is built once). */
  private async nodeOf(keyword: KeywordEntity): Promise<KeywordNode> {
    const { byId } = buildKeywordForest(await this.keywords.findWithSynonyms(keyword.attributeId));
    const node = byId.get(keyword.id);
    if (node === undefined) throw new UnknownResource(`keyword ${keyword.id} does not exist`);
    return node;
  }

  private async attributeOfUrl(url: unknown): Promise<AttributeEntity> {
    const attributeId = this.urls.parseIdOrThrow(url, 'attributes', 'an attribute', 'attributeUrl');
    const attribute = await this.attributes.findById(attributeId);
    if (attribute === null) throw new InvalidInput(`attribute ${attributeId} does not exist`);
    requireKeywordsType(attribute);
    return attribute;
  }

  /** null for top level; a parent must be a keyword of the same attribute. */
  private async parentIdOf(url: unknown, attributeId: number): Promise<number | null> {
    if (url === null || url === '') return null;
    const parentId = this.urls.parseIdOrThrow(url, 'keywords', 'a keyword', 'parent');
    const parent = await this.keywords.findById(parentId);
    if (parent === null) throw new InvalidInput(`keyword ${parentId} does not exist`);
    if (parent.attributeId !== attributeId)
      throw new InvalidInput(`keyword ${parentId} belongs to another attribute`);
    return parentId;
  }

  private async refuseDuplicate(keyword: KeywordEntity): Promise<void> {
    const sibling = await this.keywords.siblingNamed(keyword.attributeId, keyword.parentKey, keyword.name);
    if (sibling !== null && sibling.id !== keyword.id) throw new DuplicateKeyword(keyword.name);
  }
}

function requireKeywordsType(attribute: AttributeEntity): void {
  if (attribute.typeId !== AttributeType.Keywords) {
    throw new InvalidInput(`attribute ${attribute.id} is not a keywords attribute, so it has no keywords`);
  }
}

function validName(raw: unknown): string {
  return requiredText(raw, 'you must supply a name for the keyword');
}

/** undefined leaves synonyms as they are; duplicates (ignoring case) collapse to the first. */
function validSynonyms(raw: unknown[] | null | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  if (raw === null) return [];
  if (raw.length > MAX_SYNONYMS)
    throw new InvalidInput(`a keyword can have at most ${MAX_SYNONYMS} synonyms`);
  const seen = new Set<string>();
  const synonyms: string[] = [];
  for (const item of raw) {
    const synonym = requiredText(item, 'synonyms cannot be blank');
    if (seen.has(synonym.toLowerCase())) continue;
    seen.add(synonym.toLowerCase());
    synonyms.push(synonym);
  }
  return synonyms;
}
