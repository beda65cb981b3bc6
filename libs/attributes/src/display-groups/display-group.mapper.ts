import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { DisplayGroupView } from './display-groups.service';

export interface DisplayGroupRepresentation {
  url: string;
  id: number;
  name: string;
  displayOrder: number;
  attributes: Array<{ id: number; url: string; label: string }>;
}

/** XML (DESIGN §3): `<displayAttributeGroup>`, its `<attributes><attribute>`. */
export const DISPLAY_GROUP_XML = xmlMapping('displayAttributeGroup', { attributes: 'attribute' });

@Injectable()
export class DisplayGroupMapper {
  constructor(private readonly urls: UrlService) {}

  url(id: number): string {
    return this.urls.rest('display-attribute-groups', id);
  }

  toRepresentation({ group, attributes }: DisplayGroupView): DisplayGroupRepresentation {
    return {
      url: this.url(group.id),
      id: group.id,
      name: group.name,
      displayOrder: group.displayOrder,
      attributes: attributes.map((attribute) => ({
        id: attribute.id,
        url: this.urls.rest('attributes', attribute.id),
        label: attribute.label,
      })),
    };
  }
}
