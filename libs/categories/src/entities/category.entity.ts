import { NamedTreeNodeColumns } from '@dam/database';
import { Column, Entity } from 'typeorm';

/** A node of the category tree. `name` and `description` hold the default language's texts. */
@Entity('categories')
export class CategoryEntity extends NamedTreeNodeColumns {
  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime' })
  updatedAt: Date;
}
