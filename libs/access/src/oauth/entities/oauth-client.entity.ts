import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('oauth_clients')
export class OAuthClientEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'client_id', type: 'varchar', length: 100, unique: true })
  clientId: string;

  @Column({ name: 'secret_hash', type: 'varchar', length: 255 })
  secretHash: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** The user a client_credentials token acts as (the application user for the service's own client). */
  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}
