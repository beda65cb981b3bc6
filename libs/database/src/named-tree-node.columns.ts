import { Column, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The columns a node of a named tree opens with (access levels, categories): its id, the default
 * language's name and description, and its parent (null at the top). Each owner's entity extends it and
 * names its own table; this class maps no table.
 */
export abstract class NamedTreeNodeColumns {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'parent_id', type: 'integer', nullable: true })
  parentId: number | null;
}
