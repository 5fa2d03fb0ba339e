import { useState } from 'react';
import type { ProductInfoData } from '../../../../contract/earn.ts';
import type { Product } from '../../../../contract/products.ts';
import { unitsOf } from '../../lib/amount.ts';
import { PowerProjection } from './PowerProjection.tsx';
import { ProductCard } from './ProductCard.tsx';
import { SubscribeForm } from './SubscribeForm.tsx';
import { productOf } from '../../../../contract/products.ts';

/** One product tab: the product, its subscribe form and, for 360-day, the power projection. */
export function ProductPane({ product, info }: { product: Product; info: ProductInfoData }) {
  const [input, setInput] = useState('');
  const parsed = unitsOf(input);
  const amount = parsed !== null && parsed > 0n ? parsed : null;
  return (
    <>
      <ProductCard product={product} info={info} />
      <SubscribeForm product={product} info={info} input={input} amount={amount} onInput={setInput} />
      {productOf(product).kind === 'pool' && <PowerProjection info={info} amount={amount} />}
    </>
  );
}
