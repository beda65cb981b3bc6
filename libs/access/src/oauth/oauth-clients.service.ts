import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUniqueViolation } from '@dam/database';
import { StateConflict } from '@dam/errors';
import { DomainEvents } from '@dam/events';
import { UrlService } from '@dam/http';
import { randomBytes } from 'node:crypto';
import { Repository } from 'typeorm';
import { PasswordHasher } from '../users/password-hasher';
import { clientEvent, ClientCreated, ClientSecretRotated } from './client-events';
import { OAuthClientEntity } from './entities/oauth-client.entity';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * OAuth clients: each acts, under client_credentials, as one user. Secrets are stored hashed. A creation
 * or a new secret writes its event (`client.created`, `client.secret-rotated`: an audit entry, never
 * the secret) in the transaction of the write.
 */
@Injectable()
export class OAuthClientsService {
  constructor(
    @InjectRepository(OAuthClientEntity) private readonly clients: Repository<OAuthClientEntity>,
    private readonly hasher: PasswordHasher,
    private readonly events: DomainEvents,
    private readonly urls: UrlService,
  ) {}

  /** `client` (found by its id) when `secret` is its secret; undefined otherwise, unknown clients too. */
  async verify(client: OAuthClientEntity | null, secret: string): Promise<OAuthClientEntity | undefined> {
    // Verify against a dummy hash when the client is unknown so timing does not reveal which ids exist.
    const valid = await this.hasher.verify(secret, client?.secretHash ?? this.hasher.dummyHash);
    return client !== null && valid ? client : undefined;
  }

  findByClientId(clientId: string): Promise<OAuthClientEntity | null> {
    return this.clients.findOneBy({ clientId });
  }

  /** The user's first client (for the application user, the one ensured at boot). */
  findFirstOfUser(userId: number): Promise<OAuthClientEntity | null> {
    return this.clients.findOne({ where: { userId }, order: { id: 'ASC' } });
  }

  async create(
    userId: number,
    name: string,
    credentials?: Partial<ClientCredentials>,
  ): Promise<{ client: OAuthClientEntity; secret: string }> {
    const clientId = credentials?.clientId ?? `dam-${randomBytes(8).toString('hex')}`;
    const secret = credentials?.clientSecret ?? randomBytes(24).toString('base64url');
    const client = Object.assign(new OAuthClientEntity(), {
      clientId,
      secretHash: await this.hasher.hash(secret),
      name,
      userId,
      createdAt: new Date(),
    });
    try {
      const saved = await this.clients.manager.transaction(async (manager) => {
        const row = await manager.getRepository(OAuthClientEntity).save(client);
        await this.events.record(manager, clientEvent(this.urls, ClientCreated, row));
        return row;
      });
      return { client: saved, secret };
    } catch (error) {
      if (isUniqueViolation(error)) throw new StateConflict(`a client with id ${clientId} already exists`);
      throw error;
    }
  }

  async replaceSecret(client: OAuthClientEntity, secret: string): Promise<void> {
    client.secretHash = await this.hasher.hash(secret);
    await this.clients.manager.transaction(async (manager) => {
      await manager.getRepository(OAuthClientEntity).save(client);
      await this.events.record(manager, clientEvent(this.urls, ClientSecretRotated, client));
    });
  }

  count(): Promise<number> {
    return this.clients.count();
  }
}
