import { Column, Entity, JoinTable, ManyToMany, PrimaryGeneratedColumn } from 'typeorm';
import { GroupEntity } from './group.entity';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255, unique: true })
  username: string;

  @Column({ name: 'email_address', type: 'varchar', length: 255, nullable: true })
  emailAddress: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  forename: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  surname: string | null;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ name: 'is_admin', type: 'boolean', default: false })
  isAdmin: boolean;

  @Column({ name: 'is_application', type: 'boolean', default: false })
  isApplication: boolean;

  /** Raised whenever the user's sessions end: URLs signed under an older generation stop working. */
  @Column({ name: 'credential_generation', type: 'int', default: 0 })
  credentialGeneration: number;

  @ManyToMany(() => GroupEntity)
  @JoinTable({
    name: 'user_groups',
    joinColumn: { name: 'user_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'group_id', referencedColumnName: 'id' },
  })
  groups: GroupEntity[];

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime' })
  updatedAt: Date;
}
