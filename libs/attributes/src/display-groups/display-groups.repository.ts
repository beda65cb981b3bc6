import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CacheGenerations } from '@dam/database';
import { In, Repository } from 'typeorm';
import { ATTRIBUTES_GENERATION } from '../attributes/attributes.repository';
import { DisplayAttributeGroupMemberEntity } from '../entities/display-attribute-group-member.entity';
import { DisplayAttributeGroupEntity } from '../entities/display-attribute-group.entity';

/** A group with the ids of its attributes in their order. */
export interface DisplayGroupRow {
  group: DisplayAttributeGroupEntity;
  attributeIds: number[];
}

@Injectable()
export class DisplayGroupsRepository {
  constructor(
    @InjectRepository(DisplayAttributeGroupEntity)
    private readonly groups: Repository<DisplayAttributeGroupEntity>,
    @InjectRepository(DisplayAttributeGroupMemberEntity)
    private readonly members: Repository<DisplayAttributeGroupMemberEntity>,
    private readonly generations: CacheGenerations,
  ) {}

  /** Every group with its attribute ids, in two queries. */
  async findAll(): Promise<DisplayGroupRow[]> {
    const groups = await this.groups.find({ order: { displayOrder: 'ASC', id: 'ASC' } });
    return this.withMembers(groups);
  }

  async findById(id: number): Promise<DisplayGroupRow | undefined> {
    const group = await this.groups.findOneBy({ id });
    return group === null ? undefined : (await this.withMembers([group]))[0];
  }

  /** Saves the group and, when given, replaces its attributes (in that order), in one transaction. */
  async save(
    group: DisplayAttributeGroupEntity,
    attributeIds?: number[],
  ): Promise<DisplayAttributeGroupEntity> {
    return this.groups.manager.transaction(async (manager) => {
      const saved = await manager.getRepository(DisplayAttributeGroupEntity).save(group);
      if (attributeIds !== undefined) {
        const members = manager.getRepository(DisplayAttributeGroupMemberEntity);
        await members.delete({ groupId: saved.id });
        if (attributeIds.length > 0) {
          await members.insert(
            attributeIds.map((attributeId, position) => ({ groupId: saved.id, attributeId, position })),
          );
        }
      }
      await this.generations.bump(ATTRIBUTES_GENERATION, manager);
      return saved;
    });
  }

  async delete(id: number): Promise<void> {
    await this.groups.manager.transaction(async (manager) => {
      await manager.getRepository(DisplayAttributeGroupEntity).delete({ id });
      await this.generations.bump(ATTRIBUTES_GENERATION, manager);
    });
  }

  private async withMembers(groups: DisplayAttributeGroupEntity[]): Promise<DisplayGroupRow[]> {
    const ids = groups.map((group) => group.id);
    const members =
      ids.length === 0
        ? []
        : await this.members.find({ where: { groupId: In(ids) }, order: { position: 'ASC' } });
    return groups.map((group) => ({
      group,
      attributeIds: members
        .filter((member) => member.groupId === group.id)
        .map((member) => member.attributeId),
    }));
  }
}
