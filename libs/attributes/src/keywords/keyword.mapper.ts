import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { KeywordNode } from './keyword-tree';

export interface KeywordRepresentation {
  url: string;
  id: number;
  name: string;
  attributeUrl: string;
  parent: string | null;
  children: KeywordRepresentation[];
  synonyms: string[];
}

/** XML (DESIGN §3): `<keyword>`, its `<children><keyword>` and `<synonyms><synonym>`. */
export const KEYWORD_XML = xmlMapping('keyword', { children: 'keyword', synonyms: 'synonym' });

@Injectable()
export class KeywordMapper {
  constructor(private readonly urls: UrlService) {}

  url(id: number): string {
    return this.urls.rest('keywords', id);
  }

  toRepresentation(node: KeywordNode): KeywordRepresentation {
    const keyword = node.item;
    return {
      url: this.url(keyword.id),
      id: keyword.id,
      name: keyword.name,
      attributeUrl: this.urls.rest('attributes', keyword.attributeId),
      parent: keyword.parentId === null ? null : this.url(keyword.parentId),
      children: node.children.map((child) => this.toRepresentation(child)),
      synonyms: node.synonyms,
    };
  }
}
