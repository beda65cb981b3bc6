import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A link handing a snapshot of assets to people without an account (issue 33). */
@Entity('shares')
export class ShareEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** Hex SHA-256 of the link's token; the token itself is never stored. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  /** The creator: the items are judged by their permissions whenever the share is read. */
  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'varchar', length: 16 })
  rendition: string;

  /** scrypt's `scrypt$N$r$p$salt$hash` (PasswordHasher), or null without a password. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ name: 'expires_at', type: 'datetime' })
  expiresAt: Date;

  @Column({ name: 'max_downloads', type: 'integer', nullable: true })
  maxDownloads: number | null;

  @Column({ type: 'integer', default: 0 })
  downloads: number;

  @Column({ name: 'revoked_at', type: 'datetime', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}
